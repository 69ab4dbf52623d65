from mcplint import versions
from mcplint.capture.http import first_of_response, foreign_origin, is_success, split_host
from mcplint.capture.ordinary import ORDINARY_ANSWER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


def _never_allowed(request, origin: str) -> bool:
    """An Origin no server can mean to allow: the audit's foreign-origin probe, or a host under
    the reserved `.invalid` top-level domain (RFC 6761), which no site can ever have."""
    if request.probe == "foreign-origin":
        return True
    host = split_host(origin)
    return host is not None and (host[0] == "invalid" or host[0].endswith(".invalid"))


class ForeignOriginAccepted(TrafficRule):
    """The server serves a request whose Origin names another site (must be 403 from 2025-11-25).

    ## Why
    A web page on any site can make the user's browser POST to an MCP server on
    `localhost` or the local network (DNS rebinding). Servers MUST validate `Origin`, and
    from 2025-11-25 MUST answer an invalid one with 403 Forbidden. Serving it (and sending
    `Access-Control-Allow-Origin: *`) hands the page the user's tools. Origins that name the
    requested host, or loopback when the server is on loopback, are not foreign. Only an
    Origin the server cannot mean to allow is certain to be wrong: the audit's
    `foreign-origin` probe (`http://mcplint-probe.invalid`) or any `.invalid` host. Another
    site's Origin in a capture of a real client may be one the server allows on purpose
    (its own web app): that is reported as info, to check.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "ping"}, "http": {"method": "POST", "url": "http://127.0.0.1:38001/mcp", "headers": {"Host": "127.0.0.1:38001", "Origin": "http://mcplint-probe.invalid", "MCP-Protocol-Version": "2025-11-25"}}, "probe": "foreign-origin"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 8, "result": {}}, "http": {"status": 200, "headers": {"Access-Control-Allow-Origin": "*", "content-type": "text/event-stream"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "ping"}, "http": {"method": "POST", "url": "http://127.0.0.1:38002/mcp", "headers": {"Host": "127.0.0.1:38002", "Origin": "http://mcplint-probe.invalid", "MCP-Protocol-Version": "2025-11-25"}}, "probe": "foreign-origin"}
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
    quiet_on = frozenset({ORDINARY_ANSWER})  # see mcplint.capture.ordinary

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        origin = foreign_origin(request) if request is not None else None
        if origin is None:
            return
        session.assess(self)
        if not is_success(record.status):
            return
        related = ((request.header_pointer("origin"), "the Origin header"),)
        if _never_allowed(request, origin):
            yield Violation(record.http_pointer / "status",
                            f"Request from the foreign Origin {origin!r} answered {record.status}; {self.remedy}",
                            related=related)
        else:  # a real client's Origin: the server may allow that site on purpose
            yield Violation(record.http_pointer / "status",
                            f"Request from the foreign Origin {origin!r} answered {record.status}; the server may "
                            f"allow this site on purpose, but if it is not meant to, {self.remedy}",
                            related=related, severity=Severity.INFO)
