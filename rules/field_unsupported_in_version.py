from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import TOOL_FIELDS, field_range

_REMOVED = {"execution": " (tasks became the io.modelcontextprotocol/tasks extension in 2026-07-28)"}


class FieldUnsupportedInVersion(ToolRule):
    """A tool uses a field that the protocol version being linted does not define.

    ## Why
    Tool fields arrived over time: `annotations` in 2025-03-26; `title`,
    `outputSchema` and `_meta` in 2025-06-18; `icons` and `execution` in 2025-11-25,
    and `execution` left again in 2026-07-28, when tasks became an extension. A client
    speaking an older (or newer) version ignores such a field, so whatever it was
    meant to achieve (a display title, structured output validation, task support)
    silently does not happen. Usually the server sends fields of its SDK's newest
    version whatever version was negotiated.

    ## Bad
    ```json protocol=2025-06-18
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "icons": [{"src": "https://example.com/weather.png"}],
                "execution": {"taskSupport": "forbidden"}}]}
    ```

    ## Good
    ```json protocol=2025-11-25
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "icons": [{"src": "https://example.com/weather.png"}],
                "execution": {"taskSupport": "forbidden"}}]}
    ```
    """

    code = "MCP103"
    name = "field-unsupported-in-version"
    category = "protocol"
    severity = Severity.WARNING

    def candidates(self, doc, ctx):
        census = doc.census()  # only tools with a field this version lacks: in most documents none
        absent = {field for field in census.fields if field in TOOL_FIELDS and ctx.version not in TOOL_FIELDS[field]}
        return census.with_any(absent)

    def check_tool(self, ptr, tool, ctx):
        for field in tool:
            if field in TOOL_FIELDS and ctx.version not in TOOL_FIELDS[field]:
                removed = _REMOVED.get(field, "") if ctx.version > max(TOOL_FIELDS[field]) else ""
                yield Violation(
                    ptr / field,
                    f"Tool field '{field}' does not exist in protocol {ctx.version}; it is defined "
                    f"{field_range(field)}{removed}: drop it or target a version that has it",
                    at_key=True,
                )
