from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

# server capability -> the versions whose schema has it
_SINCE = {
    "completions": versions.since(versions.V2025_03_26),
    "tasks": frozenset({versions.V2025_11_25}),
    "extensions": versions.since(versions.V2026_07_28),
}


class CapabilityFromLaterVersion(TrafficRule):
    """The server declares a capability the negotiated protocol version does not have.

    ## Why
    Each version defines its own capability keys: `completions` arrived in
    2025-03-26, `tasks` exists only in 2025-11-25 (2026-07-28 moved tasks to an
    extension), and `extensions` arrived in 2026-07-28. Declaring one under another
    version is harmless to a lenient client but shows the server does not follow the
    version it negotiated (the TypeScript SDK servers advertise `tasks` at
    2025-06-18), and a client of that version will not use it.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}, "tasks": {"list": {}}}, "serverInfo": {"name": "s", "version": "1"}}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "tasks": {"list": {}}}, "serverInfo": {"name": "s", "version": "1"}}}}
    ```
    """

    code = "MCP632"
    methods = frozenset({"initialize", "server/discover"})
    name = "capability-from-later-version"
    category = "protocol"
    severity = Severity.INFO
    needs = "initialize or server/discover result"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        if exchange.method not in ("initialize", "server/discover") or result is None:
            return
        capabilities = result.get("capabilities")
        if not isinstance(capabilities, dict):
            return
        version = session.version  # the version the exchange just settled
        for key, allowed in _SINCE.items():
            if key in capabilities and version not in allowed:
                yield Violation(exchange.response.ptr / "result" / "capabilities" / key,
                                f"Capability {key!r} does not exist in protocol {version}; declare only the "
                                "negotiated version's capabilities", at_key=True)
