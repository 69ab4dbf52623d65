import re

from mcplint import versions
from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import ToolRule, Violation

_SCHEME = regex(r"([A-Za-z][A-Za-z0-9+.-]*):")
_DATA_TYPE = regex(r"data:([^;,]*)", re.I)


class IconSrcUnsafe(ToolRule):
    """A tool icon's `src` is not an `http(s):` URL or a `data:` image.

    ## Why
    Clients fetch and render tool icons. The schema's `Icon.src` "May be an
    HTTP/HTTPS URL or a `data:` URI with Base64-encoded image data", and consumers
    must reject other schemes: `javascript:` runs code, `file:` reads the user's
    disk, `ftp:` and `ws:` are not image sources, and a relative reference is not
    the absolute URI the schema's `format: uri` asks for. A `data:` URI whose media
    type is not an image (e.g. `data:text/html`) is not an icon. `http:` is allowed
    by the schema and is not reported. Icons exist from protocol 2025-11-25 on.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "icons": [{"src": "javascript:alert(1)"}, {"src": "file:///etc/passwd"}]}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "icons": [{"src": "https://example.com/w.png", "mimeType": "image/png", "sizes": ["48x48"]},
                          {"src": "http://example.com/w.png"},
                          {"src": "data:image/svg+xml;base64,PHN2Zy8+"}]}]}
    ```
    """

    code = "MCP105"
    name = "icon-src-unsafe"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_11_25)

    fields = frozenset({"icons"})

    def check_tool(self, ptr, tool, ctx):
        icons = tool.get("icons")
        if not isinstance(icons, list):
            return
        for index, icon in enumerate(icons):
            src = icon.get("src") if isinstance(icon, dict) else None
            if not isinstance(src, str):
                continue  # MCP108
            problem = _problem(src.strip())
            if problem:
                yield Violation(
                    ptr / "icons" / index / "src",
                    f"Icon src '{src[:80]}' {problem}; clients must reject it: use an http(s): URL or a data: image",
                )


def _problem(src: str) -> str | None:
    scheme = _SCHEME.match(src)
    if scheme is None:
        return "is not an absolute URI"
    name = scheme.group(1).lower()
    if name in ("https", "http"):  # the schema: "May be an HTTP/HTTPS URL"
        return None
    if name == "data":
        media = _DATA_TYPE.match(src).group(1).strip().lower()
        return None if media.startswith("image/") else f"is a data: URI of type '{media or 'text/plain'}', not an image"
    return f"uses the {name}: scheme"
