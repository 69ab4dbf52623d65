from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import ICON_THEMES, TASK_SUPPORT, defined_in, json_type, show

_RARE = frozenset({"outputSchema", "_meta", "execution", "icons"})
_OBJECT_FIELDS = ("outputSchema", "_meta", "execution")


class ToolFieldTypeInvalid(ToolRule):
    """A tool's `title`, `outputSchema`, `_meta`, `execution` or `icons` has the wrong type or value.

    ## Why
    The Tool schema types these members: `title` is a string; `outputSchema`, `_meta`
    and `execution` are objects; `icons` is an array of Icon objects, each with a
    string `src`, an optional string `mimeType`, `sizes` as an array of strings and
    `theme` either `"light"` or `"dark"`; `execution.taskSupport` is `"forbidden"`,
    `"optional"` or `"required"`. Clients built on typed SDKs reject a tool list with a
    mistyped member, so every tool disappears, not just this one. Fields are checked
    only in versions that define them (MCP103 reports the others); `name`,
    `description`, `inputSchema` and `annotations` have rules of their own.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather", "title": 42, "inputSchema": {"type": "object"},
                "icons": {"src": "https://example.com/w.png"},
                "execution": {"taskSupport": "sometimes"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "title": "Get weather", "inputSchema": {"type": "object"},
                "icons": [{"src": "https://example.com/w.png", "sizes": ["48x48"], "theme": "light"}],
                "execution": {"taskSupport": "optional"}}]}
    ```
    """

    code = "MCP108"
    name = "tool-field-type-invalid"
    category = "protocol"
    severity = Severity.ERROR

    def candidates(self, doc, ctx):
        census = doc.census()  # only tools with a non-string title or one of the rarer fields
        if not census.types_of("title") - {str} and not census.has(*_RARE):
            return []
        return [(ptr, tool) for ptr, tool in census.tools
                if not _RARE.isdisjoint(tool) or ("title" in tool and not isinstance(tool["title"], str))]

    def check_tool(self, ptr, tool, ctx):
        def present(field):
            return field in tool and defined_in(field, ctx.version)

        if present("title") and not isinstance(tool["title"], str):
            yield Violation(ptr / "title", f"Tool title must be a string, not {json_type(tool['title'])}")
        for field in _OBJECT_FIELDS:
            if present(field) and not isinstance(tool[field], dict):
                yield Violation(ptr / field, f"Tool {field} must be an object, not {json_type(tool[field])}")
        if present("execution") and isinstance(tool["execution"], dict) and "taskSupport" in tool["execution"]:
            value = tool["execution"]["taskSupport"]
            if value not in TASK_SUPPORT:
                yield Violation(
                    ptr / "execution" / "taskSupport",
                    f"execution.taskSupport must be one of {', '.join(TASK_SUPPORT)}, not {show(value)}",
                )
        if present("icons"):
            yield from _check_icons(ptr / "icons", tool["icons"])


def _check_icons(ptr, icons):
    if not isinstance(icons, list):
        yield Violation(ptr, f"Tool icons must be an array of icon objects, not {json_type(icons)}")
        return
    for index, icon in enumerate(icons):
        here = ptr / index
        if not isinstance(icon, dict):
            yield Violation(here, f"Icon {index} must be an object with a 'src', not {json_type(icon)}")
            continue
        if not isinstance(icon.get("src"), str):
            got = "has no 'src'" if "src" not in icon else f"'src' is {json_type(icon['src'])}"
            yield Violation(here if "src" not in icon else here / "src",
                            f"Icon {index} {got}; src must be a URI string")
        if "mimeType" in icon and not isinstance(icon["mimeType"], str):
            yield Violation(here / "mimeType", f"Icon mimeType must be a string, not {json_type(icon['mimeType'])}")
        sizes = icon.get("sizes")
        if "sizes" in icon and not (isinstance(sizes, list) and all(isinstance(s, str) for s in sizes)):
            yield Violation(here / "sizes", 'Icon sizes must be an array of strings such as "48x48" or "any"')
        if "theme" in icon and icon["theme"] not in ICON_THEMES:
            yield Violation(here / "theme", f"Icon theme must be \"light\" or \"dark\", not {show(icon['theme'])}")
