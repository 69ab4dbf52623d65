from mcplint import versions
from mcplint.capture.errors import URL_ELICITATION_REQUIRED, error_code, is_transport_rejection
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ToolFailureProtocolError(TrafficRule):
    """A failure inside a listed tool is reported as a JSON-RPC error instead of an `isError` result.

    ## Why
    Errors that happen while a tool runs (an upstream API failing, a file that is not
    there, a business rule) belong in the `CallToolResult` with `isError: true`: the
    client hands that text to the model, which can correct itself or tell the user. A
    JSON-RPC error is for the protocol layer (unknown tool, malformed request) and is
    usually shown to nobody but the client's log. Invalid arguments (-32602) are judged
    by MCP708; method-not-found (tasks), internal errors (-32603: the spec lists "server
    errors" among the protocol errors), transport rejections and URL-elicitation
    requests are protocol errors and are not reported. What is left is a tool's own
    failure under a server-defined code (-32000 and the like, or any other number).

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_current_time", "inputSchema": {"type": "object", "properties": {"timezone": {"type": "string"}}}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_current_time", "arguments": {"timezone": "Mars/Olympus_Mons"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32000, "message": "Invalid timezone: 'No time zone found with key Mars/Olympus_Mons'"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_current_time", "inputSchema": {"type": "object", "properties": {"timezone": {"type": "string"}}}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_current_time", "arguments": {"timezone": "Mars/Olympus_Mons"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Invalid timezone: 'No time zone found with key Mars/Olympus_Mons'"}], "isError": true}}}
    ```
    """

    code = "MCP707"
    errors_only = True  # check_exchange: failed calls only
    name = "tool-failure-protocol-error"
    checklist = (9,)
    category = "protocol"
    severity = Severity.WARNING
    needs = "tools/call of a listed tool that failed"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call" or exchange.tool is None:
            return
        response = exchange.response
        result = response.result
        if result is not None:
            if result.get("isError") is True:
                session.assess(self)
            return
        error = response.error
        code = error_code(error) if error is not None else None
        if code is None or is_transport_rejection(response, code):
            return
        session.assess(self)
        if code in (-32600, -32601, -32602, -32603) or (code == URL_ELICITATION_REQUIRED and ctx.version == versions.V2025_11_25):
            return  # -32603: the tools page lists "server errors" among the protocol errors; -32600 claims
            # a malformed request, a protocol error too (wrong for a well-formed call, but not a tool's failure)
        yield Violation(response.ptr / "error",
                        f"tool {exchange.tool_name!r} failed with JSON-RPC error {code}; report failures inside "
                        "a tool as a result with isError: true so the model sees what went wrong",
                        related=((exchange.tool[0], "the tool definition"),))
