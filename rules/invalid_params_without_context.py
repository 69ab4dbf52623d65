import re

from mcplint.capture.errors import error_code, is_unknown_method
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

# Parameter names of the protocol's own requests, for errors about a missing one.
PROTOCOL_PARAMS = ("_meta", "cursor", "name", "arguments", "uri", "protocolVersion", "capabilities",
                   "clientInfo", "level", "ref", "argument", "progressToken", "requestId", "task",
                   "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities")


class InvalidParamsWithoutContext(TrafficRule):
    """An invalid-params error (-32602) names neither the parameter nor the tool.

    ## Why
    -32602 tells the client that something in its request was wrong, not what. "Invalid
    params" alone leaves the model guessing which argument to change, so it retries
    with the same mistake. Name the parameter (or the unknown tool, prompt or
    resource) in the message, or put structured detail in `error.data`. An answer to a
    method the server does not implement (a misspelt method, the audit's unknown-method
    probe, `server/discover` sent to a server of an earlier version) has no parameter to
    name: its code is what is wrong (MCP715), so it is not judged here.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 6, "method": "prompts/get", "params": {"name": "code_review", "arguments": {"language": "python"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message": "Invalid params"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 6, "method": "prompts/get", "params": {"name": "code_review", "arguments": {"language": "python"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message": "Prompt code_review: missing required argument 'code'"}}}
    ```
    """

    code = "MCP711"
    errors_only = True  # check_exchange: failed calls only
    name = "invalid-params-without-context"
    checklist = (11,)
    category = "protocol"
    severity = Severity.WARNING
    needs = "invalid-params (-32602) error or isError tool result"

    def check_exchange(self, exchange, session, ctx):
        response = exchange.response
        error = response.error
        if error is None or response.sender != "server" or error_code(error) != -32602:
            return
        if is_unknown_method(exchange.request) or (exchange.method == "server/discover" and session.era != "stateless"):
            return  # the method is what the server does not know: its code is MCP715's to judge, not its wording
        session.assess(self)
        if _has_detail(error.get("data")):
            return
        text = error.get("message")
        if not isinstance(text, str):
            return  # MCP700
        names = _names(exchange)
        if text.isascii():  # an ASCII name is in ASCII text, any case, only if its lower case is
            lowered = text.lower()
            names = {n for n in names if not n.isascii() or n.lower() in lowered}
        # (Only names that may be there go into the pattern: with the request's values in it, a
        # pattern of all of them would be new, and compiled, for every error.)
        pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        if pattern and re.search(rf"(?<![\w-])(?:{pattern})(?![\w-])", text, re.IGNORECASE):
            return
        yield Violation(response.ptr / "error" / "message",
                        f"invalid-params error {text!r} names no parameter or tool; say which one is wrong "
                        "and why (in the message or in error.data)")


def _has_detail(data) -> bool:
    return isinstance(data, (dict, list)) and bool(data) or isinstance(data, str) and bool(data.strip())


def _names(exchange) -> set[str]:
    """What an error about this request could name: its parameter names and values."""
    params = exchange.request.params
    names = set(PROTOCOL_PARAMS)
    for key, value in params.items():
        names.add(key)
        if isinstance(value, str) and len(value) < 200:
            names.add(value)  # the tool, prompt or resource asked for
        elif isinstance(value, dict):
            names.update(k for k in list(value)[:100] if isinstance(k, str))
    if exchange.tool is not None:
        schema = exchange.tool[1].get("inputSchema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(properties, dict):
            names.update(k for k in list(properties)[:200] if isinstance(k, str))
    return {n for n in names if n.strip()}
