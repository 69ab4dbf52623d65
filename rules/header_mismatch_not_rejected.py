from mcplint import versions
from mcplint.capture.http import VERSION_HEADER, first_of_response, header
from mcplint.capture.session import META_VERSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

HEADER_MISMATCH = -32020
UNSUPPORTED_VERSION = -32022


class HeaderMismatchNotRejected(TrafficRule):
    """A request whose MCP-Protocol-Version header differs from its `_meta` version is not answered 400 with -32020.

    ## Why
    In 2026-07-28 every request states its version twice: in the body's
    `_meta["io.modelcontextprotocol/protocolVersion"]` and in the `MCP-Protocol-Version`
    header that gateways route on. When they disagree the server MUST reject the request
    with HTTP 400 and the JSON-RPC error -32020 (HeaderMismatch), so the client learns what
    is wrong. Another code (the Python SDK answers -32600 "Missing session ID") sends the
    client after the wrong problem.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "private"}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Bad Request: Missing session ID"}}, "http": {"status": 400, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "private"}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/list"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32020, "message": "MCP-Protocol-Version header does not match _meta protocolVersion"}}, "http": {"status": 400, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP811"
    senders = frozenset({"server"})  # check_record judges responses only
    name = "header-mismatch-not-rejected"
    checklist = (21,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "request whose MCP-Protocol-Version header differs from its _meta version"

    def check_record(self, record, session, ctx):
        request = first_of_response(record, session)
        if request is None or request.method != "POST" or not isinstance(request.message, dict):
            return
        params = request.message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        body_version = meta.get(META_VERSION) if isinstance(meta, dict) else None
        sent = header(request, VERSION_HEADER)
        if not isinstance(body_version, str) or sent is None or sent == body_version:
            return
        session.assess(self)
        error = record.message.get("error") if isinstance(record.message, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        # An unsupported version on either side may be answered -32022 instead.
        allowed = {HEADER_MISMATCH} | ({UNSUPPORTED_VERSION} if {sent, body_version} - versions.ALL else set())
        related = ((request.header_pointer(VERSION_HEADER), f"header {sent}, _meta {body_version}"),)
        if record.status != 400:
            yield Violation(
                record.http_pointer / "status",
                f"Header version {sent} differs from the _meta version {body_version} but the answer is"
                f" {record.status}; reject it with 400 and error -32020",
                related=related,
            )
        elif isinstance(code, (dict, list)) or code not in allowed:
            where = record.base / "error" / "code" if code is not None else record.http_pointer / "status"
            got = f"error {code}" if code is not None else "no JSON-RPC error"
            yield Violation(
                where,
                f"Header version {sent} differs from the _meta version {body_version}: answered with {got};"
                " use -32020 (HeaderMismatch)",
                related=related,
            )
