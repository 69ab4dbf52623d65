from mcplint import versions
from mcplint.capture.envelope import is_stateless_request
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show

_KNOWN = frozenset({"complete", "input_required"})
_MAY_ASK = frozenset({"tools/call", "prompts/get", "resources/read"})  # the methods MRTR allows


class ResultTypeMissing(TrafficRule):
    """A 2026-07-28 result lacks `resultType`, or has one its request cannot get.

    ## Why
    From protocol 2026-07-28 every result says what it is: `"complete"` for a final
    answer, `"input_required"` when the server needs more input first (allowed only
    for `tools/call`, `prompts/get` and `resources/read`), or a value defined by an
    extension both sides advertise. A client must reject a result type it does not
    know, and a missing one makes the result look like it came from an older server.
    (tools/list results are checked by MCP109 together with their cache fields.)

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": "summarise", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the text."}}]}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": "summarise", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the text."}}]}}}
    ```
    """

    code = "MCP640"
    name = "result-type-missing"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "2026-07-28 result"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        method = exchange.method
        if result is None or method in ("tools/list", "initialize") or not is_stateless_request(exchange.request, session):
            return
        ptr = exchange.response.ptr / "result"
        if "resultType" not in result:
            yield Violation(ptr, f"Result of {method} lacks resultType; protocol {ctx.version} requires it on every "
                                 'result ("complete" for a final answer)')
            return
        value = result["resultType"]
        if not isinstance(value, str):
            yield Violation(ptr / "resultType", f"resultType must be a string, not {show(value)}")
        elif value == "input_required" and method not in _MAY_ASK:
            yield Violation(ptr / "resultType", f"{method} cannot answer input_required; only tools/call, "
                                                "prompts/get and resources/read may ask for input")
        elif value not in _KNOWN and not (session.server_capabilities or {}).get("extensions"):
            yield Violation(ptr / "resultType", f"Unknown resultType {value!r}; use \"complete\" or "
                                                "\"input_required\", or advertise the extension that defines it")
