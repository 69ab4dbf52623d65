from mcplint import versions
from mcplint.capture.envelope import is_stateless_request
from mcplint.capture.session import CLIENT, REQUEST, SERVER
from mcplint.document.pointer import Pointer
from mcplint.capture.ordinary import PLAIN_CALL
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

CAPABILITY = {"sampling/createMessage": "sampling", "roots/list": "roots", "elicitation/create": "elicitation"}
_MAY_ASK = frozenset({"tools/call", "prompts/get", "resources/read"})  # MRTR: the requests that may need input
_META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
# "Only use capabilities that were successfully negotiated": SHOULD up to 2025-03-26, MUST from 2025-06-18
# (lifecycle "Operation"); the 2026-07-28 MRTR page says MUST NOT for inputRequests.
_MUST = versions.since(versions.V2025_06_18)
_MODES = versions.since(versions.V2025_11_25)  # elicitation modes, sampling tools and context


def _dict(value):
    return value if isinstance(value, dict) else None


def problems(method: str, params: dict, declared: dict, version: str):
    """(path below the request, message, severity or None) for each capability the request
    needs that ``declared`` (the client's capabilities) lacks."""
    capability = CAPABILITY[method]
    own = _dict(declared.get(capability))
    if own is None:
        yield (("method",), f"the client did not declare the {capability!r} capability; send {method} only to "
                            f"clients that declare {capability}", None if version in _MUST else Severity.WARNING)
        return
    if version not in _MODES:
        return
    if method == "elicitation/create":
        mode = params.get("mode", "form")
        # "an empty capabilities object is equivalent to declaring support for form mode only"
        supported = {m for m in ("form", "url") if m in own} or {"form"}
        if mode in ("form", "url") and mode not in supported:
            where = ("params", "mode") if "mode" in params else ("params",)
            yield (where, f"a {mode}-mode elicitation, but the client supports only "
                          f"{' and '.join(sorted(supported))} mode; use a mode the client declared", None)
    elif method == "sampling/createMessage":
        tools = params.get("tools")
        if isinstance(tools, list) and tools and _dict(own.get("tools")) is None:
            yield (("params", "tools"), "a sampling request with tools, but the client did not declare "
                                        "sampling.tools; leave the tools out for this client", None)
        context = params.get("includeContext")
        if context in ("thisServer", "allServers") and _dict(own.get("context")) is None:
            yield (("params", "includeContext"), f"includeContext {context!r}, but the client did not declare "
                                                 "sampling.context; omit includeContext or use \"none\"",
                   Severity.WARNING)


class ServerRequestWithoutCapability(TrafficRule):
    """The server asks the client for sampling, roots or elicitation without the client's capability.

    ## Why
    A client says in its capabilities what the server may ask of it: `sampling` for
    `sampling/createMessage`, `roots` for `roots/list`, `elicitation` for
    `elicitation/create`. Both sides must use only negotiated capabilities (lifecycle
    "Operation": SHOULD up to 2025-03-26, a warning there; MUST from 2025-06-18). From
    2025-11-25 the server also must not send an elicitation in a mode the client did not
    declare (`elicitation: {}` means form mode only) nor a sampling request with `tools`
    without `sampling.tools`, and should not ask for `includeContext` other than
    `"none"` without `sampling.context` (warning). In 2026-07-28 these requests travel
    in the `inputRequests` of an `input_required` result, judged against the
    `clientCapabilities` in the request's `_meta` (multi round-trip requests: MUST NOT).
    Judged only when the capture shows the client's capabilities.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the report."}}], "maxTokens": 200}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {"sampling": {}}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the report."}}], "maxTokens": 200}}}
    ```
    """

    code = "MCP638"
    name = "server-request-without-capability"
    category = "protocol"
    severity = Severity.ERROR
    methods = frozenset(CAPABILITY) | _MAY_ASK
    senders = frozenset({"server"})  # check_message judges the server's requests (check_exchange is not filtered)
    needs = "server request to the client, or 2026-07-28 input_required result"
    quiet_on = frozenset({PLAIN_CALL})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != REQUEST or message.method not in CAPABILITY:
            return
        initialize = session.initialize
        if initialize is None or versions.is_stateless(ctx.version):
            return  # no handshake seen: the client's capabilities are unknown (2026-07-28: MCP639)
        declared = _dict(initialize.request.params.get("capabilities"))
        if declared is None:
            return
        for path, text, severity in problems(message.method, message.params, declared, ctx.version):
            yield Violation(Pointer((*message.ptr, *path)), f"Server sent {message.method}, but {text}",
                            severity=severity)

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        if (result is None or exchange.method not in _MAY_ASK or exchange.request.sender != CLIENT
                or result.get("resultType") != "input_required" or not is_stateless_request(exchange.request, session)):
            return
        requests = _dict(result.get("inputRequests"))
        meta = _dict(exchange.request.params.get("_meta"))
        declared = _dict(meta.get(_META_CAPABILITIES)) if meta is not None else None
        if requests is None or declared is None:
            return  # nothing asked, or no capabilities sent (a malformed request: MCP643)
        base = exchange.response.ptr / "result" / "inputRequests"
        for key, request in requests.items():
            method = request.get("method") if isinstance(request, dict) else None
            if not isinstance(method, str) or method not in CAPABILITY:
                continue
            params = _dict(request.get("params")) or {}
            for path, text, severity in problems(method, params, declared, ctx.version):
                yield Violation(Pointer((*base, key, *path)), f"inputRequests[{key!r}] is {method}, but {text}",
                                severity=severity)
