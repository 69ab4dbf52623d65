from mcplint import versions
from mcplint.capture.envelope import is_stateless_request
from mcplint.capture.errors import error_code
from mcplint.capture.session import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

METHOD_NOT_FOUND = -32601
_HELD = "_mcp642_discover_refused"  # on the session: violations waiting for proof the server speaks 2026-07-28
_SPEAKS = "_mcp642_stateless_result"
_MAX_HELD = 100


class DiscoverNotImplemented(TrafficRule):
    """A server that speaks protocol 2026-07-28 answers `server/discover` with "method not found".

    ## Why
    `server/discover` is how a 2026-07-28 client learns the versions, capabilities and
    identity of a server before anything else, and how a client that speaks both eras
    tells a stateless server from an older one: "Servers MUST implement it"
    (server/discover, 2026-07-28). A server that serves other 2026-07-28 requests but
    answers `server/discover` with -32601 is taken for a handshake-era server by every
    such client, which then falls back to `initialize`. Judged only when the capture
    also shows the server answering a 2026-07-28 request with a result; a server that
    does not speak 2026-07-28 at all rightly answers -32601.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found: server/discover"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}}}
    ```
    """

    code = "MCP642"
    name = "discover-not-implemented"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "2026-07-28 server/discover answered"

    def check_exchange(self, exchange, session, ctx):
        request, response = exchange.request, exchange.response
        if request.sender != CLIENT or not is_stateless_request(request, session) or request.meta_version is None:
            return
        if response.result is not None:
            if exchange.method != "server/discover":
                session.__dict__[_SPEAKS] = True
            return
        if exchange.method == "server/discover" and error_code(response.error or {}) == METHOD_NOT_FOUND:
            held = session.__dict__.setdefault(_HELD, [])
            if len(held) < _MAX_HELD:
                held.append(Violation(response.ptr / "error" / "code",
                                      "server/discover was answered -32601 (method not found) by a server that serves "
                                      "2026-07-28 requests; implement server/discover, every 2026-07-28 server must"))
        yield from ()

    def check_session(self, session, ctx):
        if session.__dict__.get(_SPEAKS):
            yield from session.__dict__.get(_HELD, ())
