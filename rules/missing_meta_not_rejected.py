from mcplint import versions
from mcplint.capture.errors import HEADER_MISMATCH, error_code
from mcplint.capture.http import VERSION_HEADER, header
from mcplint.capture.session import CLIENT, META_VERSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
INVALID_PARAMS = -32602


def _missing(request, session) -> tuple[list[str], bool] | None:
    """The required `_meta` keys a 2026-07-28 request lacks, and whether it names its version
    only in the HTTP header (then a server may answer -32020 as well); None when it is not
    such a request, or lacks nothing."""
    meta = request.params.get("_meta")
    meta = meta if isinstance(meta, dict) else {}
    version = meta.get(META_VERSION)
    if version is not None:
        if not isinstance(version, str) or version not in versions.VERSIONS or not versions.is_stateless(version):
            return None  # an unsupported version is MCP716's, a handshake version is another era
        return ([META_CAPABILITIES], False) if META_CAPABILITIES not in meta else None
    # No version in the body: a 2026-07-28 request only when its HTTP header says so.
    named = header(request.record, VERSION_HEADER) if request.record.http else None
    if named not in versions.VERSIONS or not versions.is_stateless(named) or session.initialize is not None:
        return None
    return [key for key in (META_VERSION, META_CAPABILITIES) if key not in meta], True


class MissingMetaNotRejected(TrafficRule):
    """A 2026-07-28 request lacking the required `_meta` fields is not rejected with -32602.

    ## Why
    Every 2026-07-28 request carries its protocol version and the client's capabilities
    in `_meta` (`io.modelcontextprotocol/protocolVersion`,
    `io.modelcontextprotocol/clientCapabilities`). "A request missing any required field
    is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid
    params). On HTTP, the response status MUST be 400 Bad Request" (base protocol,
    `_meta`). A server that answers anyway guesses capabilities the client never
    declared. A request naming 2026-07-28 only in its `MCP-Protocol-Version` header may
    also be refused with -32020 (HeaderMismatch). The audit's `missing-meta` probe sends
    `server/discover` without `clientCapabilities`.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}, "probe": "missing-meta"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}, "probe": "missing-meta"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "params._meta is missing io.modelcontextprotocol/clientCapabilities"}}}
    ```
    """

    code = "MCP643"
    name = "missing-meta-not-rejected"
    checklist = (8,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "a 2026-07-28 request without its required _meta fields"

    def check_exchange(self, exchange, session, ctx):
        request, response = exchange.request, exchange.response
        if request.sender != CLIENT or request.stub:
            return  # a stub kept without its params cannot show what it lacked
        found = _missing(request, session)
        if found is None:
            return
        keys, header_only = found
        session.assess(self)
        lacks = " and ".join(key.rsplit("/", 1)[-1] for key in keys)
        what = request.method or "JSON-RPC"
        if response.error is None:
            yield Violation(response.ptr / "result" if response.result is not None else response.ptr,
                            f"a {what} request without {lacks} in _meta got a normal result; "
                            "reject it with -32602 (Invalid params)")
            return
        code = error_code(response.error)
        allowed = {INVALID_PARAMS, HEADER_MISMATCH} if header_only else {INVALID_PARAMS}
        if code not in allowed:
            yield Violation(response.ptr / "error" / "code",
                            f"a {what} request without {lacks} in _meta was refused with {code!r}; "
                            "a request missing required _meta fields gets -32602 (Invalid params)")
            return
        record = response.record
        if record.http and record.status is not None and record.status != 400:
            yield Violation(record.http_pointer / "status",
                            f"a request without {lacks} in _meta was refused with HTTP {record.status}; "
                            "the Streamable HTTP transport sends -32602 with 400")
