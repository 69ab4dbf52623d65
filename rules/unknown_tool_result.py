from mcplint.capture.errors import UnknownToolRule, is_error_result
from mcplint.findings import Severity
from mcplint.rule import Violation


class UnknownToolResult(UnknownToolRule):
    """A call of a tool that tools/list does not list is answered with a result, not a JSON-RPC error.

    ## Why
    The specification classes an unknown tool as a protocol error: the server answers
    with a JSON-RPC error (every version's example uses -32602, "Unknown tool: …").
    Answering with a `CallToolResult`, even one with `isError: true`, tells the client
    the tool ran and failed, so the model retries a tool that does not exist instead of
    the client refreshing its tool list. A successful result is worse still. A warning:
    the spec classes the case and shows the error but does not say MUST. The rule
    judges only calls made after a complete, current tools/list (all pages, no
    `list_changed` since).

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "read_graph", "inputSchema": {"type": "object"}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "MCP error -32602: Tool no_such_tool not found"}], "isError": true}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "read_graph", "inputSchema": {"type": "object"}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: no_such_tool"}}}
    ```
    """

    code = "MCP705"
    name = "unknown-tool-result"
    checklist = (9,)
    category = "protocol"
    severity = Severity.WARNING  # the spec shows the -32602 error as an example; it has no MUST for it

    def check_unknown(self, name, exchange, session, ctx):
        response = exchange.response
        result = response.result
        if result is None:
            return
        related = ((exchange.request.ptr / "params" / "name", "the tool tools/list does not list"),)
        if is_error_result(result):
            yield Violation(response.ptr / "result" / "isError",
                            f"unknown tool {name!r} answered with an isError result; answer with a JSON-RPC "
                            "error (-32602 \"Unknown tool\"), since an unknown tool is a protocol error",
                            related=related)
        else:
            yield Violation(response.ptr / "result",
                            f"unknown tool {name!r} answered with a successful result; answer with a JSON-RPC "
                            "error (-32602 \"Unknown tool\")", related=related)
