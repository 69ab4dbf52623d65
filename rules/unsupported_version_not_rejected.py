from mcplint import versions
from mcplint.capture.errors import HEADER_MISMATCH, UNSUPPORTED_VERSION, error_code
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class UnsupportedVersionNotRejected(TrafficRule):
    """A 2026-07-28 request naming an unsupported protocol version is not answered with -32022.

    ## Why
    In 2026-07-28 every request names its protocol version in `_meta`. A server that
    does not support the version named must answer -32022 UnsupportedProtocolVersion
    (with `data.supported`), and over HTTP with status 400, so that the client can
    retry with a version both sides know. A normal result leaves the client believing
    the server speaks a version it never heard of; another error code hides why the
    request failed. The audit's unsupported-version probe names 1999-01-01. (Before
    2026-07-28 the `initialize` handshake settles the version instead: MCP628.) A refusal
    with the very error the same method got when it named a supported version (a
    server that cannot reach its backend) shows nothing about the version and is not
    judged.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}}, "probe": "unsupported-version"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}}, "probe": "unsupported-version"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32022, "message": "Unsupported protocol version 1999-01-01", "data": {"supported": ["2026-07-28"], "requested": "1999-01-01"}}}}
    ```
    """

    code = "MCP716"
    name = "unsupported-version-not-rejected"
    checklist = (8,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "a 2026-07-28 request naming a protocol version nobody released"

    def check_exchange(self, exchange, session, ctx):
        requested = exchange.request.meta_version
        response = exchange.response
        if requested is None or requested in versions.ALL:
            if requested is not None and response.error is not None:
                _note_failure(session, exchange.method, response.error)
            return
        if response.error is not None and _fails_anyway(session, exchange.method, response.error):
            return  # the same error a supported version got: the refusal says nothing about the version
        session.assess(self)
        if response.error is None:
            yield Violation(response.ptr / "result" if response.result is not None else response.ptr,
                            f"a request naming protocol version {requested!r}, which the server cannot support, "
                            f"got a normal result; answer -32022 UnsupportedProtocolVersion listing the supported "
                            f"versions")
            return
        code = error_code(response.error)
        if code not in (UNSUPPORTED_VERSION, HEADER_MISMATCH):  # a mismatching header may be named first
            yield Violation(response.ptr / "error" / "code",
                            f"a request naming protocol version {requested!r} was refused with {code!r}; "
                            f"the code for an unsupported version is -32022 (UnsupportedProtocolVersion)")
            return
        record = response.record
        if code == UNSUPPORTED_VERSION and record.http and record.status is not None and record.status != 400:
            yield Violation(record.http_pointer / "status",
                            f"-32022 (UnsupportedProtocolVersion) came with HTTP {record.status}; "
                            "the Streamable HTTP transport sends it with 400")


# On the session: method -> (code, message) of the last error a request naming a supported version
# got. A server that fails a method whatever the version (a backend it cannot reach: "fetch failed")
# fails the probe the same way, which shows nothing about how it treats the version.
_FAILURES = "_mcp716_failures"
_MAX_METHODS = 256


def _failure(error: dict) -> tuple:
    message = error.get("message")
    return error_code(error), message[:500] if isinstance(message, str) else None


def _note_failure(session, method, error: dict) -> None:
    failures = session.__dict__.setdefault(_FAILURES, {})
    if isinstance(method, str) and (method in failures or len(failures) < _MAX_METHODS):
        failures[method] = _failure(error)


def _fails_anyway(session, method, error: dict) -> bool:
    failures = session.__dict__.get(_FAILURES)
    return bool(failures) and isinstance(method, str) and failures.get(method) == _failure(error)

