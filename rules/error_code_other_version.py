from mcplint import versions
from mcplint.capture.errors import ErrorCodeRule, OTHER_VERSION
from mcplint.findings import Severity


class ErrorCodeOtherVersion(ErrorCodeRule):
    """An MCP error code sent under a protocol version that does not define it.

    ## Why
    MCP defines some error codes only in certain versions: -32042 (URL elicitation
    required) exists in 2025-11-25 only, and -32020 (header mismatch), -32021 (missing
    client capability) and -32022 (unsupported protocol version) from 2026-07-28. In an
    older session these numbers are just implementation-defined server errors, so a
    client of the negotiated version cannot read the meaning the server intends. Use
    the codes of the negotiated version (for an unsupported version during
    `initialize`, -32602 with `data.supported`).

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "notes", "version": "1.2.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32022, "message": "Unsupported protocol version"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "notes", "version": "1.2.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Tool registry failed to load: notes.db is locked"}}}
    ```
    """

    code = "MCP702"
    name = "error-code-other-version"
    checklist = (8,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.until(versions.V2025_11_25)
    verdicts = frozenset({OTHER_VERSION})

    def advice(self, code, why, version):
        return f"{why}; use a code {version} defines"
