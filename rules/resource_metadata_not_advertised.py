from mcplint import versions
from mcplint.capture.http import first_of_response, header, names_resource_metadata
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ResourceMetadataNotAdvertised(TrafficRule):
    """A 401 challenge does not name the Protected Resource Metadata URL.

    ## Why
    From 2025-11-25 a server MUST offer its Protected Resource Metadata either through
    `resource_metadata` in the 401 `WWW-Authenticate` challenge or at a well-known URI
    (`/.well-known/oauth-protected-resource[/<path>]`). Clients try the header first; a
    capture cannot show whether the well-known URI is served, so a challenge without the
    parameter is a warning: add `resource_metadata="…"` to the challenge.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"WWW-Authenticate": "Bearer realm=\\"mcp\\""}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": null, "http": {"status": 401, "headers": {"WWW-Authenticate": "Bearer resource_metadata=\\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\\", scope=\\"tools.read\\""}}}
    ```
    """

    code = "MCP802"
    statuses = frozenset({401})  # check_record looks at 401 answers only
    name = "resource-metadata-not-advertised"
    checklist = (17,)
    category = "security"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_11_25)
    needs = "HTTP 401 response"

    def check_record(self, record, session, ctx):
        if record.status != 401 or first_of_response(record, session) is None:
            return
        session.assess(self)
        value = header(record, "www-authenticate")
        if (value or "").strip() and not names_resource_metadata(value):  # no header at all: MCP800
            yield Violation(
                record.header_pointer("www-authenticate"),
                "401 challenge has no resource_metadata parameter; add it so clients need not guess"
                " the well-known metadata URI",
            )
