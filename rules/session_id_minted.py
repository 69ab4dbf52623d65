from mcplint import versions
from mcplint.capture.http import SESSION_HEADER, first_of_response, header
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class SessionIdMinted(TrafficRule):
    """A 2026-07-28 server sends Mcp-Session-Id headers.

    ## Why
    The 2026-07-28 protocol is stateless: there is no `initialize` and no session. A server
    speaking it SHOULD ignore `Mcp-Session-Id` and never mint or echo one, because a
    client that stores and replays the id ties its requests to one server instance and
    breaks load balancing. Reported once per capture, with a count.

    ## Bad
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "private"}}, "http": {"status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "7cbf3d19272f426c904e09bba7dd27ca"}}}
    ```

    ## Good
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "private"}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP825"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "session-id-minted"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2026_07_28)

    def check_record(self, record, session, ctx):
        if header(record, SESSION_HEADER) is not None and first_of_response(record, session) is not None:
            count, first = getattr(session, "_mcp825", (0, None))
            session._mcp825 = (count + 1, first or (record.header_pointer(SESSION_HEADER), record.status))
        return iter(())

    def check_session(self, session, ctx):
        count, first = getattr(session, "_mcp825", (0, None))
        if first is None:
            return
        pointer, status = first
        times = "once" if count == 1 else f"on {count} responses"
        yield Violation(
            pointer,
            f"Mcp-Session-Id sent {times} (the first on this {status} answer); a 2026-07-28 server should not mint session ids",
        )
