import unicodedata

from mcplint import versions
from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import ToolRule, Violation

MAX_LENGTH = 128
_INVALID = regex(r"[^A-Za-z0-9_.\-]")
_NAMES = {" ": "a space", "\t": "a tab", "\n": "a line break", ",": "a comma", "/": "a slash",
          ":": "a colon", "@": "an '@'", "#": "a '#'"}


def _describe(ch: str) -> str:
    if ch in _NAMES:
        return _NAMES[ch]
    if ch.isprintable():
        return f"'{ch}'"
    name = unicodedata.name(ch, "")
    return f"the control character U+{ord(ch):04X}" + (f" ({name.lower()})" if name else "")


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)


class ToolNameInvalid(ToolRule):
    """A tool name is longer than 128 characters or uses characters outside `A-Z a-z 0-9 _ - .`.

    ## Why
    From protocol version 2025-11-25 tool names SHOULD be 1 to 128 characters long and
    use only ASCII letters, digits, underscore, hyphen and dot. Names with spaces,
    slashes, commas or non-ASCII letters break clients that build identifiers, URLs or
    HTTP headers from them, and get rejected or rewritten by some hosts.

    Empty names are reported by MCP201.

    ## Bad
    ```json
    {"tools": [{"name": "get user", "description": "Get a user by id.", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "admin.get_user-v2", "description": "Get a user by id.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP205"
    name = "tool-name-invalid"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_11_25)

    def candidates(self, doc, ctx):
        census = doc.census()  # all the names at once: a character class cannot match across them
        names = census.strings("name")
        if _INVALID.search("".join(names)) is None and max(map(len, names), default=0) <= MAX_LENGTH:
            return []
        return census.with_text(
            "name", lambda name: bool(name.strip()) and (len(name) > MAX_LENGTH or _INVALID.search(name) is not None))

    def check_tool(self, ptr, tool, ctx):
        name = tool.get("name")
        if not isinstance(name, str) or not name.strip():
            return
        problems = []
        if len(name) > MAX_LENGTH:
            problems.append(f"is {len(name)} characters long (at most {MAX_LENGTH} allowed)")
        bad = list(dict.fromkeys(_INVALID.findall(name)))
        if bad:
            listed = ", ".join(_describe(ch) for ch in bad[:5]) + (", ..." if len(bad) > 5 else "")
            problems.append(f"contains {listed}")
        if problems:
            shown = _printable(name if len(name) <= 60 else name[:57] + "...")
            yield Violation(
                ptr / "name",
                f"Tool name '{shown}' {' and '.join(problems)}; "
                "use 1-128 characters from A-Z, a-z, 0-9, '_', '-' and '.'",
            )
