from mcplint.capture.envelope import http_request_message
from mcplint.capture.records import SERVER
from mcplint.capture.session import RESPONSE
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ResponseToNotification(TrafficRule):
    """A server answers a notification with a JSON-RPC response.

    ## Why
    A notification has no `id` and the receiver must not answer it. Over Streamable
    HTTP a POST holding only a notification is answered with `202 Accepted` and no
    body (or an HTTP error status); a JSON-RPC response in that body has no request
    to belong to, and clients that treat it as one misroute it. (Checked where the
    pairing is certain: the HTTP exchange that carried the notification.)

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "http": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "result": {}}, "http": {"status": 200, "headers": {"Content-Type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "http": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": null, "http": {"status": 202, "headers": {}}}
    ```
    """

    code = "MCP614"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    name = "response-to-notification"
    category = "protocol"
    severity = Severity.ERROR
    needs = "HTTP exchange carrying a notification"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != RESPONSE or not message.record.http:
            return
        sent = http_request_message(message.record, session)
        if sent is not None and "method" in sent and "id" not in sent:
            yield Violation(message.ptr, f"Response to the notification {sent['method']!r}; a notification "
                                         "gets no response (202 Accepted with no body over HTTP)")
