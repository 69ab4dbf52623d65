from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class InitializeResultIncomplete(TrafficRule):
    """The `initialize` result lacks `protocolVersion`, `capabilities` or `serverInfo` (name and version).

    ## Why
    The initialize result is how a client learns which version was negotiated, which
    features it may use and who it is talking to. All three are required: without
    `protocolVersion` the client cannot know the version, without `capabilities` it
    must assume the server offers nothing, and `serverInfo` needs both `name` and
    `version` (clients log and display them, and work around known server bugs by
    them).

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "serverInfo": {"name": "weather"}}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.4.0"}}}}
    ```
    """

    code = "MCP626"
    methods = frozenset({"initialize"})
    name = "initialize-result-incomplete"
    category = "protocol"
    severity = Severity.ERROR
    needs = "initialize result"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        if exchange.method != "initialize" or result is None:
            return
        ptr = exchange.response.ptr / "result"
        if not isinstance(result.get("protocolVersion"), str):
            yield Violation(ptr, "initialize result has no protocolVersion string; say which version was negotiated")
        if not isinstance(result.get("capabilities"), dict):
            yield Violation(ptr, "initialize result has no capabilities object; declare the server's capabilities "
                                 "({} for none)")
        info = result.get("serverInfo")
        if not isinstance(info, dict):
            yield Violation(ptr, "initialize result has no serverInfo; add serverInfo with name and version")
            return
        missing = [key for key in ("name", "version") if not isinstance(info.get(key), str)]
        if missing:
            yield Violation(ptr / "serverInfo", f"serverInfo lacks {' and '.join(missing)}; both are required strings")
