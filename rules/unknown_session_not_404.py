from mcplint import versions
from mcplint.capture.http import SESSION_HEADER, header, request_of, rpc_method, session_ids
from mcplint.capture.ordinary import STEADY_SESSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

# Authentication and Origin checks legitimately come before the session lookup.
_EARLIER_CHECKS = (401, 403, 404)


class UnknownSessionNot404(TrafficRule):
    """A request with a terminated Mcp-Session-Id is not answered 404.

    ## Why
    Up to 2025-11-25 a server that has ended a session (after DELETE, or when it expires)
    MUST answer requests carrying that session id with 404 Not Found; a 404 is the client's
    signal to start a new session with `initialize`. A 400, or serving the dead session,
    leaves the client stuck retrying with an id that will never work again. The sentence
    is about sessions the server ended: an id it never assigned may get 400 (a missing
    or invalid session, which is what the SDKs answer) and is not judged here. A capture
    shows a session ended only by a successful DELETE.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "a403e4f0-d797-44f6-9e6b-e0a15284e777"}}}
    {"from": "client", "message": null, "http": {"method": "DELETE", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Mcp-Session-Id": "a403e4f0-d797-44f6-9e6b-e0a15284e777", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 200, "headers": {}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Mcp-Session-Id": "a403e4f0-d797-44f6-9e6b-e0a15284e777", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}, "http": {"status": 400, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "f7f1b45ebbd74b08a6adba30973a3cdb"}}}
    {"from": "client", "message": null, "http": {"method": "DELETE", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Mcp-Session-Id": "f7f1b45ebbd74b08a6adba30973a3cdb", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 200, "headers": {}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Mcp-Session-Id": "f7f1b45ebbd74b08a6adba30973a3cdb", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Session not found"}}, "http": {"status": 404, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP819"
    senders = frozenset({"server"})  # check_record judges responses only
    quiet_on = frozenset({STEADY_SESSION})  # see mcplint.capture.ordinary
    name = "unknown-session-not-404"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26) & versions.until(versions.V2025_11_25)

    def check_record(self, record, session, ctx):
        request = request_of(record, session)
        if request is None:
            return
        ids = session_ids(session, record, request)  # the state before this response
        if getattr(session, "_mcp819_judged", None) is request:
            return  # later SSE events of a response already judged
        session._mcp819_judged = request
        value = header(request, SESSION_HEADER)
        if not value or rpc_method(request) == "initialize" or record.status in _EARLIER_CHECKS or record.status is None:
            return
        if value not in ids.deleted:
            return  # 404 is required for ended sessions; for an id never assigned, 400 is as good
        yield Violation(
            record.http_pointer / "status",
            f"Request with the terminated (DELETE succeeded) session id {value!r} answered {record.status}; "
            "answer 404 so the client re-initializes",
            related=((request.header_pointer(SESSION_HEADER), "the session id"),),
        )
