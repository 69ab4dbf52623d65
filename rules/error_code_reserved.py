from mcplint.capture.errors import ErrorCodeRule, RESERVED_UNDEFINED, RETIRED
from mcplint.findings import Severity


class ErrorCodeReserved(ErrorCodeRule):
    """An error code from a reserved range that the protocol version does not define.

    ## Why
    JSON-RPC reserves -32768..-32000. Only the five standard codes (-32700,
    -32600..-32603), the implementation-defined server errors (-32099..-32000) and
    the codes MCP defines may be sent there. 2026-07-28 tightens this: -32020..-32099
    belongs to the specification (only -32020, -32021 and -32022 are defined), and the
    retired -32002 (resource not found, now -32602) and -32042 (URL elicitation
    required) must not be sent. A client that meets an undefined reserved code cannot
    tell what went wrong, and a future version may give it another meaning.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "file:///notes/missing.md", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32002, "message": "Resource file:///notes/missing.md not found"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "file:///notes/missing.md", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "Resource file:///notes/missing.md not found"}}}
    ```
    """

    code = "MCP701"
    name = "error-code-reserved"
    checklist = (8,)
    category = "protocol"
    severity = Severity.ERROR
    verdicts = frozenset({RESERVED_UNDEFINED, RETIRED})

    def advice(self, code, why, version):
        return f"{why}; use a standard code or one {version} defines"
