from mcplint import versions
from mcplint.capture.http import SESSION_HEADER, header, session_id_ok
from mcplint.capture.ordinary import STEADY_SESSION
from mcplint.capture.records import SERVER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class SessionIdInvalid(TrafficRule):
    """The server assigns an Mcp-Session-Id with characters outside visible ASCII.

    ## Why
    A session id MUST consist only of visible ASCII characters (0x21 to 0x7E): the client
    echoes it in a header on every request, and spaces, control characters or non-ASCII
    text break header parsing or get rewritten by proxies. Use a random token such as a
    UUID or a hex or base64url string.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "session 42"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "f7f1b45ebbd74b08a6adba30973a3cdb"}}}
    ```
    """

    code = "MCP823"
    senders = frozenset({"server"})  # check_record judges responses only
    quiet_on = frozenset({STEADY_SESSION})  # see mcplint.capture.ordinary
    name = "session-id-invalid"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26)

    def check_record(self, record, session, ctx):
        if record.sender != SERVER or not record.http:
            return
        value = header(record, SESSION_HEADER)
        if value is None or value == getattr(session, "_mcp823_last", None):
            return  # each distinct id once: servers echo it on every response
        session._mcp823_last = value
        if not session_id_ok(value):
            bad = next((ch for ch in value if not "!" <= ch <= "~"), "")
            what = "is empty" if not value else f"contains {bad!r} (U+{ord(bad):04X})"
            yield Violation(
                record.header_pointer(SESSION_HEADER),
                f"Mcp-Session-Id {what}; use visible ASCII characters (0x21-0x7E) only",
            )
