from mcplint.capture.envelope import valid_id
from mcplint.capture.records import SERVER
from mcplint.capture.session import REQUEST, RESPONSE
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


class MessageIdInvalid(TrafficRule):
    """A server request or response has an id that is not a string or an integer.

    ## Why
    MCP request ids are strings or integers. `null` is forbidden (stricter than plain
    JSON-RPC), and the schema types the number as an integer, so `1.5`, `true` or an
    object cannot be matched with a request by any client. A response echoes the
    request's id exactly: `1.0` for request `1` is a different id to many parsers.
    (An error response with `"id": null` is MCP618's business.)

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3.0, "result": {"tools": []}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": "req-3", "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": "req-3", "result": {"tools": []}}}
    ```
    """

    code = "MCP611"
    senders = frozenset({"server"})
    kinds = frozenset({"request", "response"})
    name = "message-id-invalid"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server message"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind not in (REQUEST, RESPONSE):
            return
        value = message.id
        if valid_id(value) or (message.kind == RESPONSE and value is None):
            return
        what = "Request" if message.kind == REQUEST else "Response"
        yield Violation(message.ptr / "id", f"{what} id must be a string or an integer, not {show(value)}")
