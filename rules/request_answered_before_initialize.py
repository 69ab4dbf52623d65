from mcplint import versions
from mcplint.capture.records import CLIENT
from mcplint.capture.session_start import hold, in_unseen_session, released
from mcplint.capture.ordinary import PLAIN_CALL
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_ALLOWED = frozenset({"initialize", "ping"})


class RequestAnsweredBeforeInitialize(TrafficRule):
    """The server answers a request other than `ping` successfully before `initialize`.

    ## Why
    Up to protocol 2025-11-25, `initialize` is the first interaction: it settles the
    version and the capabilities everything else depends on. A server that serves
    `tools/list` or `tools/call` to a client that never initialized lets clients skip
    the negotiation, and then answers in a version nobody agreed on. Before
    initialization it should answer only `ping`, and reject anything else (over
    HTTP typically with 400 "Server not initialized"). A capture may begin mid-session,
    so a request is judged only when the capture shows the session start: an
    `initialize` later in it, or a request of an audit probe.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}}
    ```
    """

    code = "MCP625"
    name = "request-answered-before-initialize"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.until(versions.V2025_11_25)
    needs = "request before initialize"
    quiet_on = frozenset({PLAIN_CALL})  # see mcplint.capture.ordinary

    def check_exchange(self, exchange, session, ctx):
        request = exchange.request
        if request.sender != CLIENT or session.initialize is not None or request.method in _ALLOWED:
            return
        if exchange.response.result is None or in_unseen_session(request.record):
            return
        violation = Violation(exchange.response.ptr / "result",
                              f"Server answered {request.method!r} before initialize; up to protocol 2025-11-25 "
                              "only ping may be answered until initialization")
        if request.record.probe is not None:
            yield violation  # the audit opened this session: nothing came before
        else:
            hold(session, self.code, violation)

    def check_session(self, session, ctx):
        yield from released(session, self.code)
