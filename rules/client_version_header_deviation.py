from mcplint import versions
from mcplint.capture.http import VERSION_HEADER, after_initialization, header, rpc_method
from mcplint.capture.records import CLIENT
from mcplint.capture.session import META_VERSION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ClientVersionHeaderDeviation(TrafficRule):
    """The client sent requests without the MCP-Protocol-Version header, or with another version than the negotiated one.

    ## Why
    From 2025-06-18 the client MUST send `MCP-Protocol-Version` on every HTTP request after
    initialization, with the negotiated version (in 2026-07-28: the request's `_meta`
    version). This is the client's mistake, not the server's, so it is reported once per
    capture with a count; it matters when the capture is meant to show the server's
    behaviour with a compliant client (a server that gets no header may assume 2025-03-26).

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1.0"}}}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "demo", "version": "1.0"}}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Host": "127.0.0.1:8000", "MCP-Protocol-Version": "2025-11-25"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}, "http": {"status": 200, "headers": {"content-type": "application/json"}}}
    ```
    """

    code = "MCP812"
    senders = frozenset({"client"})  # check_record judges requests only
    name = "client-version-header-deviation"
    checklist = (21,)
    category = "protocol"
    severity = Severity.INFO
    versions = versions.since(versions.V2025_06_18)
    # What a client sends says nothing about the server: item 21 passes only on the server's
    # answers (MCP810, MCP811), never because the client sent the header.
    needs = ""

    def check_record(self, record, session, ctx):
        if record.sender != CLIENT or not record.http or not after_initialization(session):
            return ()
        if record.probe is not None or rpc_method(record) == "initialize":
            return ()  # an audit probe's odd header is deliberate, not the client's fault
        value = header(record, VERSION_HEADER)
        if value is None:
            self._count(session, "missing", record.header_pointer(VERSION_HEADER), None)
        else:
            expected = _meta_version(record) if session.era == "stateless" else session.negotiated
            if expected and value != expected:
                self._count(session, "other", record.header_pointer(VERSION_HEADER), (value, expected))
        return ()

    @staticmethod
    def _count(session, what, pointer, detail):
        state = session.__dict__.setdefault("_mcp812", {})
        count, first, first_detail = state.get(what, (0, pointer, detail))
        state[what] = (count + 1, first, first_detail)

    def check_session(self, session, ctx):
        state = getattr(session, "_mcp812", {})
        stateless = session.era == "stateless"
        if "missing" in state:
            count, pointer, _ = state["missing"]
            yield Violation(pointer, (
                f"{_requests(count)} {'carry' if count > 1 else 'carries'} no MCP-Protocol-Version header (the first here);"
                f" the client must send it on every request{'' if stateless else ' after initialization'}"
            ))
        if "other" in state:
            count, pointer, (value, expected) = state["other"]
            against = "the _meta version" if stateless else "the negotiated version"
            yield Violation(pointer, (
                f"{_requests(count)} {'send' if count > 1 else 'sends'} an MCP-Protocol-Version other than {against}"
                f" (the first here: {value}, expected {expected}); the client must send {against}"
            ))


def _requests(count: int) -> str:
    return "1 request" if count == 1 else f"{count} requests"


def _meta_version(record):
    data = record.message
    params = data.get("params") if isinstance(data, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(META_VERSION) if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None
