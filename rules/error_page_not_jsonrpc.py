from mcplint.capture.errors import (ERROR_STATUSES, PARSE_ERROR, bad_request_kind, error_page, page_kind,
                                    page_pointer)
from mcplint.capture.http import request_of
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ErrorPageNotJsonrpc(TrafficRule):
    """Over HTTP, malformed JSON or an invalid request is answered with an HTML or plain-text page.

    ## Why
    A client that posts a message the server cannot read gets an HTTP error status;
    the Streamable HTTP transport lets its body be a JSON-RPC error without an id,
    and JSON-RPC gives it a code (-32700 for text that is not JSON, -32600 for an
    invalid request). A web framework's default HTML or plain-text error page
    instead tells the client only that something failed: it cannot show the user
    which kind of failure, and a page meant for browsers often carries a stack trace
    or server paths as well (MCP718). Answer with a JSON-RPC error body.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": null, "probe": "malformed-json", "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": null, "raw": "<html><body><h1>400 Bad Request</h1></body></html>", "http": {"status": 400, "headers": {"Content-Type": "text/html"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": null, "probe": "malformed-json", "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: the body is not valid JSON"}}, "http": {"status": 400, "headers": {"Content-Type": "application/json"}}}
    ```
    """

    code = "MCP717"
    name = "error-page-not-jsonrpc"
    checklist = (8,)
    category = "protocol"
    severity = Severity.WARNING
    senders = frozenset({"server"})
    statuses = ERROR_STATUSES
    needs = "an HTTP answer to malformed JSON or an invalid request"

    def check_record(self, record, session, ctx):
        expected = bad_request_kind(request_of(record, session))
        if expected is None:
            return
        session.assess(self)
        body = error_page(record)
        if body is None:
            return
        what = "malformed JSON" if expected == PARSE_ERROR else "an invalid request"
        yield Violation(page_pointer(record),
                        f"{what} was answered with {page_kind(record, body)} (HTTP {record.status}), not a "
                        f"JSON-RPC error; send {{\"jsonrpc\": \"2.0\", \"id\": null, \"error\": "
                        f"{{\"code\": {expected}, ...}}}} so clients can tell what failed")
