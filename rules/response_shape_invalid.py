from mcplint.capture.records import SERVER
from mcplint.capture.session import INVALID, RESPONSE
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ResponseShapeInvalid(TrafficRule):
    """A server response carries both `result` and `error`, or neither.

    ## Why
    A JSON-RPC response has exactly one of `result` (success) and `error` (failure).
    With both, clients disagree on whether the call succeeded; with neither (an object
    with only `jsonrpc` and `id`), the request is never answered as far as a client
    can tell.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "divide", "arguments": {"a": 1, "b": 0}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": []}, "error": {"code": -32603, "message": "division by zero"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "divide", "arguments": {"a": 1, "b": 0}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "Cannot divide by zero"}], "isError": true}}}
    ```
    """

    code = "MCP612"
    senders = frozenset({"server"})
    name = "response-shape-invalid"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server response"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        data = message.data
        if message.sender != SERVER or not isinstance(data, dict):
            return
        if message.kind == RESPONSE and "result" in data and "error" in data:
            yield Violation(message.ptr, "Response has both result and error; send exactly one of them")
        elif message.kind == INVALID and "id" in data:
            yield Violation(message.ptr, "Response has neither result nor error; answer with exactly one of them")
