from mcplint import versions
from mcplint.findings import Severity
from mcplint_rules.foreign_origin_accepted import ForeignOriginAccepted  # the same check, before 403 was fixed


class ForeignOriginNotRejected(ForeignOriginAccepted):
    """The server serves a request whose Origin names another site (before 2025-11-25).

    ## Why
    Servers MUST validate the `Origin` header of every connection to stop DNS-rebinding
    attacks, in which a web page drives the user's browser against a local MCP server.
    Before 2025-11-25 the spec does not fix the status for a rejection (from 2025-11-25 it is
    403, see MCP821), so any refusal is fine here; serving the request breaks the MUST, so it
    is an error, as in MCP821. As in MCP821,
    only the audit's probe Origin (or any `.invalid` host) is certain; another site's Origin
    in a capture of a real client is reported as info.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:38001/mcp", "headers": {"Host": "127.0.0.1:38001", "Origin": "http://mcplint-probe.invalid", "MCP-Protocol-Version": "2025-06-18"}}, "probe": "foreign-origin"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}, "http": {"status": 200, "headers": {"Access-Control-Allow-Origin": "*", "content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:38001/mcp", "headers": {"Host": "127.0.0.1:38001", "Origin": "http://localhost:5173", "MCP-Protocol-Version": "2025-06-18"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP822"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "foreign-origin-not-rejected"
    checklist = (17,)
    category = "security"
    severity = Severity.ERROR  # "MUST validate": serving another site's page is no validation
    versions = versions.until(versions.V2025_06_18)
    needs = "request with a foreign Origin"
    remedy = "validate Origin and reject it"
