from mcplint.capture.records import SERVER
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


class JsonrpcVersionInvalid(TrafficRule):
    """A server message lacks `"jsonrpc": "2.0"`.

    ## Why
    Every MCP message is a JSON-RPC 2.0 message, and the `jsonrpc` member with the
    exact string `"2.0"` is what says so. Strict clients and SDKs drop a message
    without it, or with `2.0` as a number or `"2"`, as invalid.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"id": 2, "result": {"tools": []}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"result": {"tools": []}, "jsonrpc": "2.0", "id": 2}}
    ```
    """

    code = "MCP610"
    senders = frozenset({"server"})
    name = "jsonrpc-version-invalid"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server message"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        data = message.data
        if message.sender != SERVER or not isinstance(data, dict):
            return
        if "jsonrpc" not in data:
            yield Violation(message.ptr, 'Server message has no "jsonrpc" member; add "jsonrpc": "2.0"')
        elif data["jsonrpc"] != "2.0":
            yield Violation(message.ptr / "jsonrpc",
                            f'"jsonrpc" must be the string "2.0", not {show(data["jsonrpc"])}')
