from mcplint import versions
from mcplint.capture.http import first_of_response, foreign_origin, is_success
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ForeignOriginAccepted(TrafficRule):
    """The server serves a request whose Origin names another site (must be 403 from 2025-11-25).

    ## Why
    A web page on any site can make the user's browser POST to an MCP server on
    `localhost` or the local network (DNS rebinding). Servers MUST validate `Origin`, and
    from 2025-11-25 MUST answer an invalid one with 403 Forbidden. Serving it (and sending
    `Access-Control-Allow-Origin: *`) hands the page the user's tools. Origins that name the
    requested host, or loopback when the server is on loopback, are not foreign.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "ping"}, "http": {"method": "POST", "url": "http://127.0.0.1:38001/mcp", "headers": {"Host": "127.0.0.1:38001", "Origin": "http://evil.example", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 8, "result": {}}, "http": {"status": 200, "headers": {"Access-Control-Allow-Origin": "*", "content-type": "text/event-stream"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "ping"}, "http": {"method": "POST", "url": "http://127.0.0.1:38002/mcp", "headers": {"Host": "127.0.0.1:38002", "Origin": "http://evil.example", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": null, "http": {"status": 403, "headers": {}}}
    ```
    """

    code = "MCP821"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "foreign-origin-accepted"
    checklist = (17,)
    category = "security"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_11_25)
    needs = "request with a foreign Origin"
    remedy = "reject it with 403 Forbidden"  # MCP822 says this for the versions before 403 was fixed

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        origin = foreign_origin(request) if request is not None else None
        if origin is None:
            return
        session.assess(self)
        if is_success(record.status):
            yield Violation(
                record.http_pointer / "status",
                f"Request from the foreign Origin {origin!r} answered {record.status}; {self.remedy}",
                related=((request.header_pointer("origin"), "the Origin header"),),
            )
