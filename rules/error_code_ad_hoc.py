from mcplint.capture.errors import ErrorCodeRule, AD_HOC
from mcplint.findings import Severity


class ErrorCodeAdHoc(ErrorCodeRule):
    """A JSON-RPC error code that is an HTTP status (404, 500) or a placeholder (-1, 0).

    ## Why
    Clients branch on JSON-RPC codes: -32601 means the method does not exist, -32602
    that the parameters are wrong, -32603 an internal failure. An HTTP status copied
    into `code`, or `-1`, matches none of them, so the client treats every failure
    alike and cannot tell a typo in a tool name from a crashed backend. Use the
    standard code that fits (application codes outside -32768..-32000 are fine when
    documented).

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "prompts/get", "params": {"name": "summarize"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "error": {"code": 404, "message": "Prompt summarize not found"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "prompts/get", "params": {"name": "summarize"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Prompt summarize not found"}}}
    ```
    """

    code = "MCP704"
    name = "error-code-ad-hoc"
    checklist = (8,)
    category = "protocol"
    severity = Severity.WARNING
    verdicts = frozenset({AD_HOC})

    def advice(self, code, why, version):
        return f"{why}; use a standard code such as -32601, -32602 or -32603"
