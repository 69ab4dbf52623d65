from mcplint.capture.records import SERVER
from mcplint.capture.session import RESPONSE
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


class ResultNotObject(TrafficRule):
    """A server response's `result` is not a JSON object.

    ## Why
    Every MCP result type is an object: even an empty answer (to `ping`, say) is
    `{}`. A `null`, `true`, a string or an array in its place breaks every client
    that reads fields from the result.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 9, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 9, "result": null}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 9, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 9, "result": {}}}
    ```
    """

    code = "MCP613"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    name = "result-not-object"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server response"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != RESPONSE or "result" not in message.data:
            return
        result = message.data["result"]
        if not isinstance(result, dict):
            yield Violation(message.ptr / "result", f"result must be an object, not {show(result)}; "
                                                    "answer an empty success with {}")
