from mcplint import versions
from mcplint.capture.errors import LEGACY_RANGE, code_verdict, error_code, server_error
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ErrorCodeLegacyRange(TrafficRule):
    """A 2026-07-28 error uses the legacy implementation-defined range -32000..-32019.

    ## Why
    2026-07-28 keeps -32000..-32019 only so that existing SDKs need not change: no new
    codes may be allocated there and new implementations should not use it. A standard
    code (-32600 for a malformed request, -32602 for bad parameters, -32603 for an
    internal failure) or an application code outside -32768..-32000 tells clients more.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32000, "message": "Tool registry is still loading, retry in a second"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Tool registry is still loading, retry in a second"}}}
    ```
    """

    code = "MCP703"
    name = "error-code-legacy-range"
    checklist = (8,)
    category = "protocol"
    severity = Severity.INFO
    versions = versions.since(versions.V2026_07_28)
    needs = "JSON-RPC error response"

    def check_message(self, message, session, ctx):
        error = server_error(message)
        if error is None:
            return
        session.assess(self)
        code = error_code(error)
        if code is not None and code_verdict(code, ctx.version)[0] == LEGACY_RANGE:
            yield Violation(message.ptr / "error" / "code",
                            f"error code {code} is in the legacy range -32000..-32019; new implementations "
                            "should use a standard code or an application code outside -32768..-32000")
