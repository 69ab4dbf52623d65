from mcplint.capture.http import header, is_loopback, request_url
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class UnauthenticatedRemoteServer(TrafficRule):
    """A server reached over plain HTTP on a network address serves tools without authentication.

    ## Why
    Servers SHOULD authenticate every connection, and a server listening on a network
    address over plain `http://` exposes its tools to anyone who can reach the port, with
    nothing encrypted on the way. Put it behind HTTPS with OAuth (answer 401 with a
    challenge until a valid bearer token arrives), or bind it to 127.0.0.1 when it is only
    meant for the local machine.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "http://10.0.0.12:8000/mcp", "headers": {"Host": "10.0.0.12:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "http://10.0.0.12:8000/mcp", "headers": {"Host": "10.0.0.12:8000", "Authorization": "Bearer eyJhbGciOi..."}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP803"
    statuses = frozenset({401})  # check_record looks at 401 answers only
    name = "unauthenticated-remote-server"
    checklist = (17,)
    category = "security"
    severity = Severity.WARNING
    needs = "tools served over HTTP"

    def check_record(self, record, session, ctx):
        if record.status == 401:  # the server asks for authentication
            session._mcp803_authenticated = True
        return iter(())

    def check_exchange(self, exchange, session, ctx):
        served = getattr(session, "_mcp803_served", None)
        if served is not None and (not served[1] or getattr(session, "_mcp803_authenticated", False)):
            return ()  # the verdict is settled: served on loopback or HTTPS, or authenticated
        method = exchange.method
        if method not in ("tools/list", "tools/call") or exchange.response.result is None:
            return iter(())
        request = exchange.request.record
        if not request.http:
            return iter(())
        if header(request, "authorization") is not None:  # the client authenticates
            session._mcp803_authenticated = True
        if served is None:
            scheme, host = request_url(request)
            session._mcp803_served = (request, scheme == "http" and host is not None and not is_loopback(host), host)
            session.assess(self)
        return iter(())

    def check_session(self, session, ctx):
        served = getattr(session, "_mcp803_served", None)
        if served is None or not served[1] or getattr(session, "_mcp803_authenticated", False):
            return
        request, _, host = served
        yield Violation(
            request.http_pointer / "url",
            f"Tools are served over plain http on the network address {host} with no authentication;"
            " require OAuth over HTTPS or bind to 127.0.0.1",
        )
