from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class NegotiatedVersionUnknown(TrafficRule):
    """The `initialize` result names a protocol version that was never released.

    ## Why
    The version a server answers with must be one it supports and one the client can
    know: 2024-11-05, 2025-03-26, 2025-06-18 or 2025-11-25 for the initialize
    handshake. A draft label, a typo (`2025-06-19`) or an invented date leaves a
    client guessing which rules apply, and a careful client disconnects.

    Echoing back a version the client offered that no release defines (the audit's
    unsupported-version probe offers 1999-01-01) is an error: "If the server supports the
    requested protocol version, it MUST respond with the same version. Otherwise, the
    server MUST respond with another protocol version it supports" (lifecycle, "Version
    Negotiation", 2024-11-05 to 2025-11-25), and no server supports a version that does
    not exist. A draft label (`DRAFT-...`) echoed back stays a warning, as a server may
    implement the draft.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "DRAFT-2025-v3", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}}
    ```
    """

    code = "MCP628"
    methods = frozenset({"initialize"})
    name = "negotiated-version-unknown"
    category = "protocol"
    severity = Severity.WARNING
    needs = "initialize result"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        if exchange.method != "initialize" or result is None:
            return
        version = result.get("protocolVersion")
        if not isinstance(version, str) or version in versions.VERSIONS:
            return
        ptr = exchange.response.ptr / "result" / "protocolVersion"
        known = ", ".join(versions.VERSIONS[:-1])
        if version == exchange.request.params.get("protocolVersion") and "draft" not in version.lower():
            yield Violation(ptr, f"Server echoed the protocol version the client offered, {version!r}, which no MCP "
                                 f"release defines; answer with a version the server supports ({known})",
                            severity=Severity.ERROR)
            return
        yield Violation(ptr, f"Negotiated protocol version {version!r} is not a released version; answer with one "
                             f"the client can know ({known})")
