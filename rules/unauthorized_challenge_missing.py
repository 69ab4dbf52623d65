from mcplint.capture.http import first_of_response, header
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class UnauthorizedChallengeMissing(TrafficRule):
    """A 401 response carries no WWW-Authenticate challenge.

    ## Why
    HTTP requires every 401 to say how to authenticate (RFC 9110 §11.6.1), and MCP
    clients start their OAuth flow from that challenge: without it a client cannot find
    the authorization server and gives up. Answer 401 with
    `WWW-Authenticate: Bearer resource_metadata="…"`.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"content-type": "text/plain"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"WWW-Authenticate": "Bearer resource_metadata=\\"https://mcp.example.com/.well-known/oauth-protected-resource\\""}}}
    ```
    """

    code = "MCP800"
    statuses = frozenset({401})  # check_record looks at 401 answers only
    name = "unauthorized-challenge-missing"
    checklist = (17,)
    category = "security"
    severity = Severity.ERROR
    needs = "HTTP 401 response"

    def check_record(self, record, session, ctx):
        if record.status != 401 or first_of_response(record, session) is None:
            return
        session.assess(self)
        if not (header(record, "www-authenticate") or "").strip():
            yield Violation(
                record.http_pointer / "status",
                "401 response without a WWW-Authenticate header; send a Bearer challenge with resource_metadata",
            )
