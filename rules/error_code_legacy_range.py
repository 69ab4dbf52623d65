from mcplint import versions
from mcplint.capture.errors import ErrorCodeRule, LEGACY_RANGE
from mcplint.findings import Severity


class ErrorCodeLegacyRange(ErrorCodeRule):
    """A 2026-07-28 error uses the legacy implementation-defined range -32000..-32019.

    ## Why
    2026-07-28 keeps -32000..-32019 only so that existing SDKs need not change: no new
    codes may be allocated there and new implementations should not use it. A standard
    code (-32600 for a malformed request, -32602 for bad parameters, -32603 for an
    internal failure) or an application code outside -32768..-32000 tells clients more.
    The body of an HTTP-level rejection (a 4xx or 5xx answer with `"id": null`, such as
    the 405 the TypeScript SDK writes for a GET it does not serve) is the SDK's
    existing use the range is kept for, and is not judged.

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
    verdicts = frozenset({LEGACY_RANGE})

    def check_message(self, message, session, ctx):
        status = message.record.status
        if status is not None and status >= 400 and message.id is None:
            return ()  # an HTTP-level rejection's body, as SDKs write it (-32000 "Method not allowed.")
        return super().check_message(message, session, ctx)

    def advice(self, code, why, version):
        return (f"error code {code} is in the legacy range -32000..-32019; new implementations "
                "should use a standard code or an application code outside -32768..-32000")
