from mcplint.capture.envelope import readable_request_id
from mcplint.capture.http import header, request_of
from mcplint.capture.records import SERVER
from mcplint.capture.session import RESPONSE
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


def _origin_rejection(message, session) -> bool:
    """A 403 to a request that names an Origin: the spec's answer to an invalid Origin, whose
    JSON-RPC body "MAY" have no id (transports, 2025-11-25); the server judged the Origin."""
    request = request_of(message.record, session)
    return message.record.status == 403 and request is not None and header(request, "origin") is not None


class ErrorIdNull(TrafficRule):
    """An error response has `"id": null` (or no id) although the request's id was readable.

    ## Why
    JSON-RPC allows a null id only when the request's id could not be read (a parse
    error, an invalid request). MCP's own schema does not allow `null` as an id at
    all (from 2025-11-25 an error may omit it in that case). When the request was a
    well-formed request with an id, the error must echo it, or the client cannot
    tell which call failed and waits until it times out. Transport-level errors (a
    missing session id, a bad protocol-version header) are the usual offenders.
    Checked where the request is certain: the same HTTP exchange, or over stdio the
    one request then pending. A 403 that rejects a request's `Origin` is exempt: the
    spec lets that body be a JSON-RPC error without an id.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": {"MCP-Protocol-Version": "1999-01-01"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: Unsupported protocol version"}}, "http": {"status": 400, "headers": {"Content-Type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": {"MCP-Protocol-Version": "1999-01-01"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32000, "message": "Bad Request: Unsupported protocol version"}}, "http": {"status": 400, "headers": {"Content-Type": "application/json"}}}
    ```
    """

    code = "MCP618"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    errors_only = True
    name = "error-id-null"
    category = "protocol"
    severity = Severity.WARNING
    needs = "error response"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != RESPONSE or message.id is not None:
            return
        if "error" not in message.data or _origin_rejection(message, session):
            return
        request_id = readable_request_id(message, session)
        if request_id is None:
            return
        where = message.ptr / "id" if "id" in message.data else message.ptr
        said = '"id": null' if "id" in message.data else "no id"
        yield Violation(where, f"Error response has {said} although the request's id {show(request_id)} was "
                               "readable; echo the request's id")
