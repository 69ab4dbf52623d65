from mcplint import versions
from mcplint.capture.http import first_of_response, header, names_resource_metadata
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ResourceMetadataMissing(TrafficRule):
    """A 401 challenge does not point to the Protected Resource Metadata (2025-06-18).

    ## Why
    In 2025-06-18 the MCP server is an OAuth resource server and its 401 MUST carry
    `WWW-Authenticate` with a `resource_metadata` parameter (RFC 9728 §5.1) naming its
    Protected Resource Metadata URL: that is the only way a 2025-06-18 client discovers the
    authorization server. (From 2025-11-25 a well-known URI is an alternative; see MCP802.)

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"WWW-Authenticate": "Bearer realm=\\"mcp\\""}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"WWW-Authenticate": "Bearer realm=\\"mcp\\", resource_metadata=\\"https://mcp.example.com/.well-known/oauth-protected-resource\\""}}}
    ```
    """

    code = "MCP801"
    statuses = frozenset({401})  # check_record looks at 401 answers only
    name = "resource-metadata-missing"
    checklist = (17,)
    category = "security"
    severity = Severity.ERROR
    versions = frozenset({versions.V2025_06_18})
    needs = "HTTP 401 response"

    def check_record(self, record, session, ctx):
        if record.status != 401 or first_of_response(record, session) is None:
            return
        session.assess(self)
        value = header(record, "www-authenticate")
        if (value or "").strip() and not names_resource_metadata(value):  # no header at all: MCP800
            yield Violation(
                record.header_pointer("www-authenticate"),
                "401 challenge has no resource_metadata parameter; a 2025-06-18 client cannot find the"
                " authorization server without it",
            )
