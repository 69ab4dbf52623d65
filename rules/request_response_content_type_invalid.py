from mcplint import versions
from mcplint.capture.http import ALLOWED_ANSWER_TYPES, carries_request, first_of_response, has_body, header, is_success, media_type
from mcplint.capture.legacy_sse import is_http_sse_post
from mcplint.capture.ordinary import ORDINARY_ANSWER
from mcplint.capture.outputs import quoted
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

class RequestResponseContentTypeInvalid(TrafficRule):
    """A POST carrying a request is answered without a JSON or SSE body.

    ## Why
    Over Streamable HTTP a POST that contains a JSON-RPC request MUST be answered with
    `Content-Type: application/json` (one JSON object) or `text/event-stream` (an SSE
    stream that ends with the response). Clients dispatch on the content type; anything
    else (`text/html`, `text/plain`, no type at all, or a bodiless 202) leaves the request
    unanswered. A body labelled `application/json` that is not one JSON object that can be
    read (cut short, or nested past any parser's depth) leaves it unanswered too, and hides
    what it held (a tool list) from the audit. Error statuses may carry other bodies (a
    plain-text 403 is fine). POSTs of
    the older HTTP+SSE transport, which servers may still offer next to Streamable HTTP,
    are not judged: there every POST is answered 202 and the response comes on the GET
    stream (its endpoint, announced in an `endpoint` event, is the SDKs'
    `/messages?sessionId=…`, which is how a capture shows it).

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "text/plain"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json; charset=utf-8"}}}
    ```
    """

    code = "MCP816"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "request-response-content-type-invalid"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26)  # Streamable HTTP; HTTP+SSE answers POSTs with 202
    quiet_on = frozenset({ORDINARY_ANSWER})  # see mcplint.capture.ordinary

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or request.method != "POST" or not is_success(record.status) or not carries_request(request):
            return
        if is_http_sse_post(request):
            return  # HTTP+SSE: every POST is answered 202, the response comes on the GET stream
        content_type = header(record, "content-type")
        if record.status == 202 or (not has_body(record) and content_type is None):
            yield Violation(
                record.http_pointer / "status",
                f"POST carrying a request answered {record.status} without a body; answer with application/json or text/event-stream",
            )
        elif media_type(content_type) not in ALLOWED_ANSWER_TYPES:
            where = record.header_pointer("content-type") if content_type is not None else record.http_pointer / "headers"
            shown = f"Content-Type {content_type!r}" if content_type is not None else "no Content-Type"
            yield Violation(where, f"Response to a request has {shown}; use application/json or text/event-stream")
        elif media_type(content_type) == "application/json" and record.message is None and (record.raw_body or "").strip():
            # a body cut short or nested past reading: whatever it answered (a tool list) went unread
            yield Violation(record.line_pointer / "raw",
                            f"Response to a request is labelled application/json but its body is not a JSON-RPC "
                            f"message that can be read ({quoted(record.raw_body, 60)!r}); send one complete JSON object")
