from mcplint.capture.records import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_STATE = "_mcp645"
_BAD_LINES = {"malformed-json": ("text that is not valid JSON", -32700),
              "invalid-request": ("valid JSON that is not a valid request", -32600)}


class ServerExitedUnanswered(TrafficRule):
    """A stdio server exited instead of answering a request.

    ## Why
    Every MCP message follows JSON-RPC 2.0, where "when a rpc call is made, the
    Server MUST reply with a Response": a request the server cannot serve gets an
    error answer, -32601 for a method it does not have, -32700 for text that is not
    JSON. A server that exits instead takes every client session down with it, and
    older SDKs did exactly that on any method they did not know (the 2026-07-28
    `server/discover` that clients send first, for one). `mcplint audit` marks the
    exit in its transcript (`{"from": "server", "message": null, "exit": 1}`) and
    starts such a server again; this rule names the first request (or malformed
    line) sent since the server last answered: what it most likely exited on.
    An exit before the server ever answered is a failure to start, not this
    rule's, unless the server, started again, then answers.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcplint", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "mcplint/no-such-method", "params": {}}, "probe": "unknown-method"}
    {"from": "server", "message": null, "exit": 1}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcplint", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather", "version": "1.0"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "mcplint/no-such-method", "params": {}}, "probe": "unknown-method"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found: mcplint/no-such-method"}}}
    ```
    """

    code = "MCP645"
    name = "server-exited-unanswered"
    checklist = (8,)
    category = "protocol"
    severity = Severity.ERROR
    transports = frozenset({"stdio"})  # only `mcplint audit` of a stdio server records an exit
    needs = "a stdio server's exit in an audit's transcript"

    def check_record(self, record, session, ctx):
        state = session.__dict__.get(_STATE)
        if state is None:
            state = session.__dict__[_STATE] = {"spoke": False, "first": None, "later": 0, "held": []}
        if record.sender == CLIENT:
            asked = _asked(record)
            if asked is not None and state["first"] is None:
                state["first"], state["later"] = asked, 0
            elif asked is not None:
                state["later"] += 1
            return ()
        exited = getattr(record, "exited", None)
        if exited is None:
            if record.message is None:  # a bodiless HTTP answer, a banner on stdout: not an answer
                return ()
            state["spoke"], state["first"] = True, None
            held, state["held"] = state["held"], []
            return held  # it answers once started again: the exit was the request's doing
        found = [] if state["first"] is None else [_violation(record, exited, *state["first"], state["later"])]
        spoke = state["spoke"]
        state.update(spoke=False, first=None)
        if spoke:
            return found
        state["held"] = found
        return ()


def _asked(record):
    """What a client record asks that needs an answer: (pointer, what was sent, the answer owed)."""
    data = record.message
    if data is None:
        if record.probe in _BAD_LINES:
            what, code = _BAD_LINES[record.probe]
            return record.line_pointer, f"on {what}", f"answering with a {code} error"
        return None
    if type(data) is dict and "id" in data and "method" in data:
        method = data["method"] if isinstance(data["method"], str) else "a request"
        answer = "an error answer such as -32601 Method not found" if method not in _KNOWN \
            else "a response, an error one if it cannot serve it"
        return record.base, f"instead of answering {method} (id {data['id']!r})", f"every request must get {answer}"
    return None


def _violation(record, exited, pointer, what, owed, later):
    """Named by the first thing sent since the server last answered: what it most likely exited
    on (whatever followed went to a server on its way out, and is counted)."""
    status = f"with status {exited}" if exited >= 0 else f"on signal {-exited}"
    after = "" if not later else f", and {later} later message{'s' if later > 1 else ''} went unanswered too"
    if what.startswith("on "):
        return Violation(record.line_pointer / "exit", f"The server exited {status} {what} instead of {owed}{after}",
                         related=((pointer, "the line"),))
    return Violation(record.line_pointer / "exit", f"The server exited {status} {what}{after}; {owed}",
                     related=((pointer, "the request"),))


# Methods a server may implement; for any other, -32601 is the answer owed.
_KNOWN = frozenset({
    "initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get", "resources/list",
    "resources/read", "resources/templates/list", "resources/subscribe", "resources/unsubscribe",
    "completion/complete", "logging/setLevel", "tasks/get", "tasks/list", "tasks/cancel", "tasks/result",
})
