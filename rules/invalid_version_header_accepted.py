from mcplint import versions
from mcplint.capture.http import VERSION_HEADER, after_initialization, first_of_response, header, is_success, rpc_method
from mcplint.capture.ordinary import STEADY_SESSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class InvalidVersionHeaderAccepted(TrafficRule):
    """The server accepts a request whose MCP-Protocol-Version header is invalid or unsupported.

    ## Why
    From 2025-06-18 the `MCP-Protocol-Version` header tells the server which protocol
    rules the request follows, and a server that receives a value it does not support MUST
    answer 400 Bad Request. Serving the request anyway hides a client that speaks a version
    the server does not, until something breaks in a subtler way.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "1999-01-01"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "1999-01-01"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Bad Request: Unsupported protocol version: 1999-01-01"}}, "http": {"status": 400, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP810"
    senders = frozenset({"server"})  # check_record judges responses only
    quiet_on = frozenset({STEADY_SESSION})  # see mcplint.capture.ordinary
    name = "invalid-version-header-accepted"
    checklist = (21,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_06_18)
    needs = "HTTP request carrying the MCP-Protocol-Version header and answered 2xx or 400"

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or not after_initialization(session) or rpc_method(request) == "initialize":
            return
        value = header(request, VERSION_HEADER)
        if value is None or not (is_success(record.status) or record.status == 400):
            return  # no header, or an answer (401, 404, 500...) that shows nothing about how it is read
        session.assess(self)
        if value in versions.VERSIONS or not is_success(record.status):
            return
        yield Violation(
            record.http_pointer / "status",
            f"Request with the unsupported MCP-Protocol-Version {value!r} was answered {record.status}; answer 400 Bad Request",
            related=((request.header_pointer(VERSION_HEADER), "the header"),),
        )
