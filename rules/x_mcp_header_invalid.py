from mcplint import versions
from mcplint.findings import Severity
from mcplint.mcp_headers import KEY, TOKEN, at, tool_annotations, where
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import show


def _flaw(value: str) -> str:
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in value):
        return "it holds control characters (CR, LF, ...)"
    if any(char.isspace() for char in value):
        return "it holds whitespace"
    return "it holds characters a header name cannot have"


class XMcpHeaderInvalid(Rule):
    """An `x-mcp-header` value is not a usable, unique HTTP header name.

    ## Why
    In protocol 2026-07-28 a tool parameter marked `"x-mcp-header": "Region"` is
    mirrored into the HTTP header `Mcp-Param-Region`. The value "MUST NOT be empty",
    "MUST match HTTP field-name token syntax" (RFC 9110: letters, digits and
    ``!#$%&'*+-.^_`|~``), "MUST NOT contain control characters, including CR or LF", and
    "MUST be case-insensitively unique among all `x-mcp-header` values in the
    `inputSchema`" (server/tools, "x-mcp-header"). Clients on Streamable HTTP must drop a
    tool that breaks any of these, so the tool silently disappears for them; a value
    with CR/LF would let an argument inject headers.

    ## Bad
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "execute_sql", "description": "Run SQL on the regional database.", "inputSchema": {"type": "object", "properties": {
        "region": {"type": "string", "description": "Region to run in", "x-mcp-header": "Region Name"},
        "zone": {"type": "string", "description": "Zone to run in", "x-mcp-header": ""}}}}
    ]}
    ```

    ## Good
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "execute_sql", "description": "Run SQL on the regional database.", "inputSchema": {"type": "object", "properties": {
        "region": {"type": "string", "description": "Region to run in", "x-mcp-header": "Region"},
        "zone": {"type": "string", "description": "Zone to run in", "x-mcp-header": "Zone"}}}}
    ]}
    ```
    """

    code = "MCP332"
    name = "x-mcp-header-invalid"
    category = "schema"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)

    def check(self, doc, ctx):
        for schema_ptr, found in tool_annotations(doc):
            first_of: dict[str, object] = {}
            for annotation in found:
                value, ptr = annotation.value, at(schema_ptr, annotation, KEY)
                if not isinstance(value, str):
                    yield Violation(ptr, f"{KEY} must be a string naming the header, not {show(value)}")
                elif not value:
                    yield Violation(ptr, f"{KEY} is empty; name the header the parameter goes into (Mcp-Param-<name>)")
                elif not TOKEN.fullmatch(value):
                    yield Violation(ptr, f"{KEY} {show(value)} is not an HTTP header name: {_flaw(value)}; use only "
                                         "letters, digits and !#$%&'*+-.^_`|~, or clients drop the tool")
                elif value.lower() in first_of:
                    first = first_of[value.lower()]
                    yield Violation(ptr, f"{KEY} {show(value)} repeats {show(first.value)} of {where(first)}; header "
                                         "names are case-insensitive, so give each parameter its own",
                                    related=((at(schema_ptr, first, KEY), "first use"),))
                else:
                    first_of[value.lower()] = annotation
