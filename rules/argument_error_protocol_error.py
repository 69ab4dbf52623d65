from mcplint import versions
from mcplint.capture.errors import error_code, is_transport_rejection
from mcplint.capture.session import META_VERSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"


class ArgumentErrorProtocolError(TrafficRule):
    """From 2025-11-25, bad arguments to a listed tool are rejected with -32602 instead of an `isError` result.

    ## Why
    2025-11-25 settled where argument-validation failures go: a wrong type, a value out
    of range or a missing field is a tool execution error, returned as a result with
    `isError: true` and a text that says what to fix, so the model can correct the call
    and retry. Only a request that breaks the `tools/call` shape itself (no tool name,
    `arguments` not an object, missing `_meta` in 2026-07-28) is a protocol error. Before
    2025-11-25 the spec allowed both, so older sessions are not judged.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": "two", "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Invalid arguments for add: a must be an integer"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": "two", "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Invalid arguments for add: a must be an integer"}], "isError": true}}}
    ```
    """

    code = "MCP708"
    errors_only = True  # check_exchange: failed calls only
    name = "argument-error-protocol-error"
    checklist = (9,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_11_25)
    needs = "tools/call of a listed tool that failed"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call" or exchange.tool is None:
            return
        response = exchange.response
        if response.result is not None:
            if response.result.get("isError") is True:
                session.assess(self)
            return
        error = response.error
        if error is None or error_code(error) != -32602 or is_transport_rejection(response, -32602):
            return
        if self._request_malformed(exchange.request, ctx.version):
            return
        session.assess(self)
        yield Violation(response.ptr / "error" / "code",
                        f"invalid arguments for tool {exchange.tool_name!r} rejected with JSON-RPC error -32602; "
                        "from 2025-11-25 return a result with isError: true that says what to fix",
                        related=((exchange.tool[0], "the tool definition"),))

    @staticmethod
    def _request_malformed(request, version: str) -> bool:
        """The request itself breaks the tools/call shape: a protocol error is right."""
        params = request.params
        if "arguments" in params and not isinstance(params["arguments"], dict):
            return True
        if versions.is_stateless(version):
            meta = params.get("_meta")
            return not isinstance(meta, dict) or META_VERSION not in meta or CAPABILITIES not in meta
        return False
