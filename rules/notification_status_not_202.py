from mcplint import versions
from mcplint.capture.http import first_of_response, has_body, is_success, kinds, only_notifications_or_responses
from mcplint.capture.legacy_sse import is_http_sse_post
from mcplint.capture.session import NOTIFICATION
from mcplint.capture.ordinary import ORDINARY_ANSWER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class NotificationStatusNot202(TrafficRule):
    """A POST carrying only notifications or responses is accepted with something other than 202 and no body.

    ## Why
    Streamable HTTP says how a server accepts a POST that holds no request (a notification
    such as `notifications/initialized`, or a response to a server request): 202 Accepted,
    with no body. Clients wait for a JSON-RPC answer after a 200 with a body, or treat the
    body as garbage; a notification has nothing to answer. (Rejecting it with a 4xx is
    allowed.) POSTs of the older HTTP+SSE transport, which servers may still offer next
    to Streamable HTTP, are not judged: their endpoint answers every POST 202 with a
    short text (it is announced in an `endpoint` event; the SDKs' `/messages?sessionId=…`
    is how a capture shows it).

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "result": {}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 202, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP815"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "notification-status-not-202"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26)  # Streamable HTTP
    quiet_on = frozenset({ORDINARY_ANSWER})  # see mcplint.capture.ordinary

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or request.method != "POST" or not is_success(record.status):
            return
        if is_http_sse_post(request):
            return  # HTTP+SSE: every POST is answered 202, the response comes on the GET stream
        if not only_notifications_or_responses(request):
            return
        what = "a notification" if NOTIFICATION in kinds(request.message) else "a response"
        if record.status != 202:
            yield Violation(record.http_pointer / "status", f"POST carrying only {what} answered {record.status}; accept it with 202 and no body")
        elif has_body(record):
            yield Violation(record.base, f"202 answer to {what} has a body; send none")
