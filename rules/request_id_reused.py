from mcplint import versions
from mcplint.capture.envelope import valid_id
from mcplint.capture.records import SERVER
from mcplint.capture.session import REQUEST, id_key
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


class IdsSeen:
    """The request ids one side used in a session, in little memory: a run of consecutive
    integers (what counters produce) plus a set of everything else."""

    __slots__ = ("low", "high", "others")

    def __init__(self) -> None:
        self.low = self.high = None
        self.others: set = set()

    def add(self, value) -> bool:
        """Record an id; False when it was seen before."""
        if isinstance(value, int) and not isinstance(value, bool):
            if self.low is not None and self.low <= value <= self.high:
                return False
            if self.low is None:
                self.low = self.high = value
                return True
            if value == self.high + 1:
                self.high = value
                while self.high + 1 in self.others:  # a run that caught up with stragglers
                    self.high += 1
                    self.others.discard(self.high)
                return True
        key = id_key(value)
        if key in self.others:
            return False
        self.others.add(key)
        return True


class RequestIdReused(TrafficRule):
    """The server reuses a request id of its own.

    ## Why
    A request id must not be reused: up to 2025-11-25 not within the session, from
    2026-07-28 not while a request with that id is still unanswered. The client pairs
    responses with requests by id, so a reused id makes it answer the wrong sampling,
    elicitation or roots request. (The client reusing its own ids is the client's
    fault and not reported here.)

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 0, "result": {"roots": []}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 0, "result": {"roots": []}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}}
    ```
    """

    code = "MCP616"
    senders = frozenset({"server"})
    kinds = frozenset({"request"})
    name = "request-id-reused"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server request"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != REQUEST or not valid_id(message.id):
            return
        if versions.is_stateless(session.version):
            if (SERVER, id_key(message.id)) in session.pending:
                yield Violation(message.ptr / "id", f"Request id {show(message.id)} is reused while the earlier "
                                                    "request with it is unanswered; use a fresh id per request")
            return
        seen = session.__dict__.get("_mcp616_ids")
        if seen is None or seen[0] is not session.initialize:  # a new session starts afresh
            seen = session.__dict__["_mcp616_ids"] = (session.initialize, IdsSeen())
        if not seen[1].add(message.id):
            yield Violation(message.ptr / "id", f"Request id {show(message.id)} was already used in this session; "
                                                "use a fresh id per request")
