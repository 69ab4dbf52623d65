from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class StructuredContentMissing(TrafficRule):
    r"""A tool that declares an `outputSchema` returned a successful result without `structuredContent`.

    ## Why
    A tool's `outputSchema` is a promise: its successful results carry
    `structuredContent` that conforms to it. Clients that read structured output
    (code, agents that chain tools) find nothing to read when it is missing. Results
    with `isError: true` are not held to the schema, as the official SDKs do.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "corpus-rawclient", "version": "0.1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather", "description": "Get the current weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "It is 4 degrees in Oslo."}]}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "corpus-rawclient", "version": "0.1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather", "description": "Get the current weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\"temperature\": 4}"}], "structuredContent": {"temperature": 4}}}}
    ```
    """

    code = "MCP720"
    name = "structured-content-missing"
    checklist = (12,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_06_18)
    needs = "successful tools/call result of a tool with an outputSchema"

    def check_exchange(self, exchange, session, ctx):
        if exchange.tool is None or exchange.method != "tools/call":
            return
        tool_ptr, tool = exchange.tool
        walk = content.walk(exchange, session.version)
        result = walk.result if walk is not None else None
        if result is None or not isinstance(tool.get("outputSchema"), dict) or result.get("isError") is True:
            return
        if self.checklist[0] not in session.assessed:
            session.assess(self)
        if "structuredContent" not in result:
            yield Violation(
                exchange.response.ptr / "result",
                f"Tool '{exchange.tool_name}' declares an outputSchema but its result has no structuredContent; "
                "return the structured value (and its JSON in a text block)",
                related=((tool_ptr / "outputSchema", "the tool's outputSchema"),),
            )
