from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_SEEN = "_mcp646_seen"  # reported once per capture: every server/discover answer repeats it


class DeprecatedCapabilityAdvertised(TrafficRule):
    """A 2026-07-28 server advertises the deprecated `logging` capability.

    ## Why
    Protocol 2026-07-28 deprecates Logging (with Roots, Sampling and Dynamic Client
    Registration): it stays valid, may be removed in a release on or after 2027-07-28,
    and "new implementations SHOULD NOT adopt them, and existing ones SHOULD migrate"
    (Deprecated features, 2026-07-28). A server that still declares `logging` invites
    clients to set levels and read `notifications/message` that a later version drops;
    write diagnostics to stderr, or into results where the user needs them. A note
    (info): SDKs declare the capability on their own, and the feature still works.
    Reported once per capture.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}, "logging": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    ```
    """

    code = "MCP646"
    name = "deprecated-capability-advertised"
    category = "protocol"
    severity = Severity.INFO
    versions = versions.since(versions.V2026_07_28)
    methods = frozenset({"server/discover", "initialize"})
    needs = "a 2026-07-28 server's capabilities"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        capabilities = result.get("capabilities") if result is not None else None
        if not isinstance(capabilities, dict) or "logging" not in capabilities or session.__dict__.get(_SEEN):
            return
        session.__dict__[_SEEN] = True
        yield Violation(exchange.response.ptr / "result" / "capabilities" / "logging",
                        "The server advertises the logging capability, which 2026-07-28 deprecates (new "
                        "implementations should not adopt it, existing ones should migrate); write "
                        "diagnostics to stderr instead")
