from mcplint import versions
from mcplint.capture import content
from mcplint.capture.output_schema import validator_for_tool
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.schema_dialects import show
from mcplint.schema_safety import EXPANDS, EXTERNAL_REF, Uncheckable, first_report

MAX_ERRORS = 3  # per result: the first few say enough
_UNCHECKED = "_MCP721_unchecked"  # on the session: (tool name, schema path) already reported


class StructuredContentSchemaMismatch(TrafficRule):
    r"""A tool's `structuredContent` does not validate against the tool's `outputSchema`.

    ## Why
    Servers must return structured results that conform to the `outputSchema` they
    declared, and clients are told to validate them: a client that does rejects the
    whole call, and one that does not hands code a value of the wrong shape. The
    schema is read in its declared dialect (`$schema`, e.g. draft-07 as the
    TypeScript SDK declares), else as 2020-12. Formats are annotations, as 2020-12
    says. Results with `isError: true` are not held to the schema.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "corpus-rawclient", "version": "0.1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather", "description": "Get the current weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\"temperature\": \"4 C\"}"}], "structuredContent": {"temperature": "4 C"}}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "corpus-rawclient", "version": "0.1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather", "description": "Get the current weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\"temperature\": 4}"}], "structuredContent": {"temperature": 4}}}}
    ```
    """

    code = "MCP721"
    name = "structured-content-schema-mismatch"
    checklist = (13,)
    category = "schema"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_06_18)
    needs = "structuredContent from a tool with an outputSchema"

    def check_exchange(self, exchange, session, ctx):
        if exchange.tool is None or exchange.method != "tools/call":
            return
        walk = content.walk(exchange, session.version)
        result = walk.result if walk is not None else None
        if result is None or "structuredContent" not in result or result.get("isError") is True:
            return
        tool_ptr, tool = exchange.tool
        schema = tool.get("outputSchema")
        if not isinstance(schema, (dict, bool)):
            return
        value = result["structuredContent"]
        if content.structured_content_problem(value, session.version):
            return  # MCP722 says it must be an object first
        validator = validator_for_tool(session, exchange.tool_name, schema)
        if validator is None:
            return  # an invalid or unsupported schema: the schema rules report it
        if self.checklist[0] not in session.assessed:
            session.assess(self)
        try:
            errors = validator(value)
        except Uncheckable as why:
            yield from _unchecked(exchange, session, schema, why, exchange.response.ptr / "result" / "structuredContent")
            return
        if not errors:
            return
        where = exchange.response.ptr / "result" / "structuredContent"
        for path, schema_path, message in errors[:MAX_ERRORS]:
            yield Violation(
                where.__class__((*where, *path)),
                f"structuredContent does not match the outputSchema of tool '{exchange.tool_name}': {message}",
                related=((tool_ptr.__class__((*tool_ptr, "outputSchema", *schema_path)), "the schema rule it breaks"),),
            )


def _unchecked(exchange, session, schema, why: Uncheckable, where):
    """The structured content could not be checked: say why, once per tool and place in its schema."""
    path = first_report(session, _UNCHECKED, exchange.tool_name, schema, why)
    if path is None:
        return
    name = exchange.tool_name
    if why.reason == EXTERNAL_REF:
        message = (f"{EXTERNAL_REF}: the structuredContent of tool {name!r} reaches {show(why.value)}, which was "
                   "not fetched, and clients cannot resolve it either; inline the definition under '$defs'")
    elif why.reason == EXPANDS:
        at = f" (repeated at {show(why.value)})" if why.value else ""
        message = (f"{EXPANDS}: the structuredContent of tool {name!r} was not checked against the outputSchema"
                   f"{at}: {why.detail}; a client that validates does as much work: reference each definition once")
    else:
        message = (f"{why.reason}: the structuredContent of tool {name!r} was not checked against "
                   f"{show(why.value)} ({why.detail}); a client that validates stalls the same way: "
                   "simplify the pattern (no nested repetition)")
    tool_ptr = exchange.tool[0]
    yield Violation(tool_ptr.__class__((*tool_ptr, "outputSchema", *path)), message,
                    related=((where, "the structured content"),))
