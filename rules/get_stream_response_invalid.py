from mcplint import versions
from mcplint.capture.http import first_of_response, header, is_success, media_type
from mcplint.capture.ordinary import ORDINARY_ANSWER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class GetStreamResponseInvalid(TrafficRule):
    """A GET to the MCP endpoint is accepted without an SSE stream.

    ## Why
    Up to 2025-11-25 a client may GET the MCP endpoint to open a stream for server-initiated
    messages. The server MUST answer either with `Content-Type: text/event-stream` or with
    405 Method Not Allowed when it offers no such stream. A 200 with JSON, HTML or nothing
    leaves the client unable to tell whether the stream exists; so does a 404 to a GET that
    carries no `Mcp-Session-Id` (a 404 is the answer to a session that expired, a 400 to a
    missing one, a 401 or 403 to missing credentials: those are not judged here).

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": null, "http": {"method": "GET", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Accept": "text/event-stream", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 200, "headers": {"content-type": "text/html"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": null, "http": {"method": "GET", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Accept": "text/event-stream", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 405, "headers": {"allow": "POST, DELETE"}}}
    ```
    """

    code = "MCP817"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "get-stream-response-invalid"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26) & versions.until(versions.V2025_11_25)
    quiet_on = frozenset({ORDINARY_ANSWER})  # see mcplint.capture.ordinary

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or request.method != "GET":
            return
        if record.status == 404 and header(request, "mcp-session-id") is None:
            # no session to have expired (404 is the answer to an unknown session id): the
            # endpoint does not route GET at all (Express's "Cannot GET /mcp")
            yield Violation(record.http_pointer / "status",
                            "GET answered 404; a server that offers no stream must answer 405 Method Not Allowed")
            return
        if not is_success(record.status):
            return
        content_type = header(record, "content-type")
        if media_type(content_type) != "text/event-stream":
            shown = f"Content-Type {content_type!r}" if content_type is not None else "no Content-Type"
            yield Violation(
                record.http_pointer / "status",
                f"GET answered {record.status} with {shown}; answer with text/event-stream or 405 Method Not Allowed",
            )
