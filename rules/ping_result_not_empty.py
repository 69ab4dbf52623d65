from mcplint import versions
from mcplint.capture.session import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class PingResultNotEmpty(TrafficRule):
    """The server answers `ping` with a result that is not empty.

    ## Why
    `ping` checks that the other side is alive, and its answer carries nothing: the
    receiver must answer promptly with an empty result, `{}` (lifecycle "Ping",
    2024-11-05 to 2025-11-25; 2026-07-28 removed `ping`). Fields in the answer mean the
    server treats `ping` as some other request, and clients built on the schema's
    `EmptyResult` may reject them. `_meta`, which every result may carry, is allowed.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "result": {"status": "ok"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "result": {}}}
    ```
    """

    code = "MCP633"
    name = "ping-result-not-empty"
    category = "protocol"
    severity = Severity.ERROR  # "must respond promptly with an empty response"
    versions = versions.until(versions.V2025_11_25)
    methods = frozenset({"ping"})
    needs = "ping answered by the server"

    def check_exchange(self, exchange, session, ctx):
        if exchange.request.sender != CLIENT or exchange.method != "ping":
            return
        result = exchange.response.result
        if result is None:
            return  # an error or a non-object result (MCP613)
        extra = sorted(key for key in result if key != "_meta")
        if extra:
            names = ", ".join(repr(key) for key in extra[:3]) + (" ..." if len(extra) > 3 else "")
            yield Violation(exchange.response.ptr / "result",
                            f"ping result must be empty ({{}}), but it has {names}; answer ping with an empty result")
