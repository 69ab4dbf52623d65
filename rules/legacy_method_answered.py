from mcplint import versions
from mcplint.capture.envelope import is_stateless_request
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_REMOVED = frozenset({"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"})


class LegacyMethodAnswered(TrafficRule):
    """A 2026-07-28 request for a method that version removed is answered as if it existed.

    ## Why
    Protocol 2026-07-28 is stateless: it has no `initialize` handshake, no `ping`, no
    `logging/setLevel` and no `resources/subscribe` (the log level travels in each
    request's `_meta`, subscriptions use `subscriptions/listen`). A request that
    carries the 2026-07-28 `_meta` version and asks for one of them should get
    `-32601` Method not found; answering it with a result, or answering `initialize`
    with protocol version 2026-07-28, tells clients the old methods still work. A
    dual-era server answering a plain `initialize` with a handshake version is fine.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}, "ttlMs": 0, "cacheScope": "public"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}, "ttlMs": 0, "cacheScope": "public"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found", "data": "ping"}}}
    ```
    """

    code = "MCP629"
    name = "legacy-method-answered"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2026_07_28)
    needs = "2026-07-28 request"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        method = exchange.method
        if result is None:
            return
        if method == "initialize":
            version = result.get("protocolVersion")
            if isinstance(version, str) and version in versions.VERSIONS and versions.is_stateless(version):
                yield Violation(exchange.response.ptr / "result" / "protocolVersion",
                                f"initialize answered with protocol version {version}, which has no initialize; "
                                "answer with a handshake version or -32601")
        elif method in _REMOVED and is_stateless_request(exchange.request, session):
            yield Violation(exchange.response.ptr / "result",
                            f"{method!r} does not exist in protocol 2026-07-28 but was answered with a result; "
                            "answer -32601 Method not found")
