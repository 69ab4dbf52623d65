from mcplint import versions
from mcplint.capture.http import first_of_response
from mcplint.capture.ordinary import ORDINARY_ANSWER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

# Authentication and Origin checks legitimately come first.
_EARLIER_CHECKS = (401, 403, 405)


class GetDelete405Missing(TrafficRule):
    """A 2026-07-28 server answers GET or DELETE with something other than 405.

    ## Why
    In 2026-07-28 Streamable HTTP is POST-only: there are no standalone streams and no
    sessions to delete. A server that only speaks this version SHOULD answer GET and DELETE
    with 405 Method Not Allowed (and `Allow: POST`), so clients stop trying the older
    transport's features instead of holding a stream open or believing a session ended.

    ## Bad
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": null, "http": {"method": "GET", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28"}}}
    {"from": "server", "message": null, "http": {"status": 200, "headers": {"content-type": "text/event-stream"}}}
    ```

    ## Good
    ```jsonl protocol=2026-07-28
    {"from": "client", "message": null, "http": {"method": "GET", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28"}}}
    {"from": "server", "message": null, "http": {"status": 405, "headers": {"allow": "POST"}}}
    ```
    """

    code = "MCP818"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "get-delete-not-405"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2026_07_28)
    quiet_on = frozenset({ORDINARY_ANSWER})  # see mcplint.capture.ordinary

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or request.method not in ("GET", "DELETE") or record.status in _EARLIER_CHECKS:
            return
        if request.probe == "old-transport":
            return  # the audit asking whether this is an HTTP+SSE server (2024-11-05), not a 2026-07-28 one
        if record.status is None:
            return
        yield Violation(
            record.http_pointer / "status",
            f"{request.method} answered {record.status}; a 2026-07-28 server should answer 405 with Allow: POST",
        )
