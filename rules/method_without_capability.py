from mcplint import versions
from mcplint.capture.records import CLIENT
from mcplint.capture.ordinary import PLAIN_CALL
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


def _needed(method: str, version: str) -> tuple[str, str | None] | None:
    """The server capability (and flag) a method belongs to under ``version``."""
    if method in ("resources/subscribe", "resources/unsubscribe"):
        return "resources", "subscribe"
    for prefix, capability in (("tools/", "tools"), ("prompts/", "prompts"), ("resources/", "resources")):
        if method.startswith(prefix):
            return capability, None
    if method == "logging/setLevel":
        return "logging", None
    if method == "completion/complete" and version != versions.V2024_11_05:
        return "completions", None  # the capability came with 2025-03-26; before, nothing to declare
    return None


class MethodWithoutCapability(TrafficRule):
    """The server successfully answers a method whose capability it did not declare.

    ## Why
    A server that offers tools, prompts, resources, logging or completions must
    declare the matching capability; clients look only at the declaration and never
    call `prompts/list` on a server without `prompts`. Serving the method anyway
    means the declaration is wrong: other clients will miss the feature, and the
    mismatch often hides a server built from two configurations. `completions` exists
    from 2025-03-26; under 2024-11-05 `completion/complete` needs no capability.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"prompts": [{"name": "summarise"}]}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}}}
    ```
    """

    code = "MCP631"
    name = "method-without-capability"
    category = "protocol"
    severity = Severity.ERROR
    needs = "successful request"
    quiet_on = frozenset({PLAIN_CALL})  # see mcplint.capture.ordinary

    def check_exchange(self, exchange, session, ctx):
        method = exchange.method
        if exchange.request.sender != CLIENT or method is None or exchange.response.result is None:
            return
        needed = _needed(method, ctx.version)
        capabilities = session.server_capabilities
        if needed is None or capabilities is None:
            return
        capability, flag = needed
        declared = capabilities.get(capability)
        if not isinstance(declared, dict):
            yield Violation(exchange.response.ptr / "result", f"Server answered {method} without declaring the "
                                                              f"{capability!r} capability; declare it")
        elif flag is not None and declared.get(flag) is not True:
            yield Violation(exchange.response.ptr / "result", f"Server answered {method} without declaring "
                                                              f"{capability}.{flag}; set it to true")
