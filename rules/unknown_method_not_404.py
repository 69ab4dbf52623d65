from mcplint import versions
from mcplint.capture.http import request_of
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

METHOD_NOT_FOUND = -32601


class UnknownMethodNot404(TrafficRule):
    """A 2026-07-28 server answers an unknown method without HTTP 404.

    ## Why
    In 2026-07-28 Streamable HTTP, an unknown JSON-RPC method MUST be answered with HTTP
    404 and the JSON-RPC error -32601 in the body. The status lets gateways and clients
    see the failure without parsing the body, and the body tells it apart from a legacy
    server's 404 for a missing endpoint. A -32601 inside a 200 (or an SSE stream) breaks
    that.

    ## Bad
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 14, "method": "nonexistent/method", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "nonexistent/method"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 14, "error": {"code": -32601, "message": "Method not found"}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 14, "method": "nonexistent/method", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "nonexistent/method"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 14, "error": {"code": -32601, "message": "Method not found"}}, "http": {"status": 404, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP820"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "unknown-method-not-404"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)

    def check_record(self, record, session, ctx):
        data = record.message
        if not isinstance(data, dict) or record.status in (404, None) or request_of(record, session) is None:
            return
        error = data.get("error")
        if isinstance(error, dict) and error.get("code") == METHOD_NOT_FOUND:
            yield Violation(
                record.http_pointer / "status",
                f"Unknown method (-32601) answered with HTTP {record.status}; a 2026-07-28 server must answer 404",
                related=((record.base / "error" / "code", "the -32601 error"),),
            )
