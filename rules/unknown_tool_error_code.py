from mcplint.capture.errors import UnknownToolRule, error_code, is_transport_rejection
from mcplint.findings import Severity
from mcplint.rule import Violation


class UnknownToolErrorCode(UnknownToolRule):
    """An unknown tool is rejected with a JSON-RPC error code other than -32602.

    ## Why
    The tool name is a parameter of `tools/call`, and every version of the
    specification shows -32602 (invalid params) with an "Unknown tool" message for a
    name the server does not have. Clients and SDKs key on that code to refresh their
    tool list. -32601 (method not found) says `tools/call` itself is unsupported, and
    -32603 says the server broke, and -32600 (invalid request) that a well-formed
    call was malformed. A -32600 in an HTTP 4xx answer (the transport refused the
    request: a missing session, a bad header) or to a broken envelope is not judged.
    The code is an example in the spec, so this is a warning, not an error.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "git_status", "inputSchema": {"type": "object"}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Tool not found: no_such_tool"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "git_status", "inputSchema": {"type": "object"}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: no_such_tool"}}}
    ```
    """

    code = "MCP706"
    name = "unknown-tool-error-code"
    checklist = (9,)
    category = "protocol"
    severity = Severity.WARNING

    def check_unknown(self, name, exchange, session, ctx):
        response = exchange.response
        error = response.error
        code = error_code(error) if error is not None else None
        if code is None or code == -32602 or is_transport_rejection(response, code):
            return
        if code == -32600 and not _well_formed(exchange.request.data):
            return  # the envelope itself is broken: -32600 is the right answer
        yield Violation(response.ptr / "error" / "code",
                        f"unknown tool {name!r} rejected with {code}; use -32602 (invalid params), "
                        "the code the specification shows for an unknown tool")


def _well_formed(data) -> bool:
    """A JSON-RPC 2.0 request envelope: the version, a string method, an object for params."""
    return (isinstance(data, dict) and data.get("jsonrpc") == "2.0" and isinstance(data.get("method"), str)
            and isinstance(data.get("params", {}), dict))
