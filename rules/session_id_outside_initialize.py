from mcplint import versions
from mcplint.capture.http import SESSION_HEADER, header, request_of, rpc_method, session_ids
from mcplint.capture.ordinary import STEADY_SESSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class SessionIdOutsideInitialize(TrafficRule):
    """The server sets a new Mcp-Session-Id on a response other than the InitializeResult.

    ## Why
    A session id is assigned on the HTTP response that carries the InitializeResult, and
    later responses may only echo it. A fresh id on some other answer (the Python SDK sets
    one on its 400 "Missing session ID") names a session that was never initialized: a
    client that adopts it is sent on to 404s, and it hints that sessions are created
    before anyone asked for one.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Bad Request: Missing session ID"}}, "http": {"status": 400, "headers": {"content-type": "application/json", "mcp-session-id": "4a1fa1c9a4bf432b8b6bc62fb89f1847"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}, "http": {"status": 400, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP824"
    senders = frozenset({"server"})  # check_record judges responses only
    quiet_on = frozenset({STEADY_SESSION})  # see mcplint.capture.ordinary
    name = "session-id-outside-initialize"
    category = "protocol"
    severity = Severity.INFO
    versions = versions.since(versions.V2025_03_26) & versions.until(versions.V2025_11_25)

    def check_record(self, record, session, ctx):
        request = request_of(record, session)
        if request is None:
            return
        ids = session_ids(session, record, request)
        value = header(record, SESSION_HEADER)
        if not value or rpc_method(request) == "initialize" or value == header(request, SESSION_HEADER):
            return
        if value in ids.assigned or getattr(session, "_mcp824_last", None) == value:
            return
        session._mcp824_last = value
        yield Violation(
            record.header_pointer(SESSION_HEADER),
            f"{record.status} answer to {rpc_method(request) or request.method} sets the session id {value!r},"
            " which no initialize response assigned; assign session ids only with the InitializeResult",
        )
