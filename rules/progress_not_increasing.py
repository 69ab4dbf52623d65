from mcplint.capture.session import CLIENT, NOTIFICATION, SERVER, id_key
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show

_STATE = "_mcp637_progress"  # on the session: token key -> last progress value, or _DONE
# Memory and time stay bounded whatever the capture: the newest tokens are remembered, and a
# late notification looks through the pending requests only when there are few of them.
_MAX_TOKENS = 10_000
_MAX_PENDING_SCAN = 1_000


class _Done:
    """A token whose request has been answered."""


_DONE = _Done()


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class ProgressNotIncreasing(TrafficRule):
    """The server's progress for a request does not increase, or goes on after the response.

    ## Why
    `progress` must increase with each `notifications/progress` for a token, and
    progress notifications must stop once the operation is complete (progress page,
    every version). A client draws a progress bar from them: a value that goes back
    or repeats, or a notification for a request it has already seen answered (and
    forgotten), is either shown wrong or dropped as referring to no active request.
    From 2025-11-25 a request run as a task ends with its terminal task status, not
    with the response that created the task, so no progress after such a response is
    reported. Progress after the response is found for tokens that had progress
    before it.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "index_repo", "arguments": {}, "_meta": {"progressToken": "p5"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p5", "progress": 50, "total": 100}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p5", "progress": 40, "total": 100}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "indexed"}]}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p5", "progress": 100, "total": 100}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "index_repo", "arguments": {}, "_meta": {"progressToken": "p5"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p5", "progress": 40, "total": 100}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p5", "progress": 100, "total": 100}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "indexed"}]}}}
    ```
    """

    code = "MCP637"
    name = "progress-not-increasing"
    category = "protocol"
    severity = Severity.ERROR  # "must increase", "must stop after completion"
    senders = frozenset({"server"})
    kinds = frozenset({"notification"})
    # No `methods`: it would keep check_exchange to exchanges of those methods, and any request
    # can carry a progress token; check_exchange returns at once until progress is seen.
    needs = "server progress notification"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != NOTIFICATION or message.method != "notifications/progress":
            return
        params = message.params
        token, progress = params.get("progressToken"), params.get("progress")
        if not isinstance(token, (str, int)) or isinstance(token, bool) or not _number(progress):
            return  # a malformed notification is the schema's business
        seen = session.__dict__.setdefault(_STATE, {})
        key = id_key(token)
        last = seen.get(key)
        if last is _DONE:
            if _reused(session, token):
                last = None  # a new request took the token: a new series
            else:
                yield Violation(message.ptr, f"Progress for token {show(token)} arrived after its request was "
                                             "answered; stop progress notifications when the operation completes")
                return
        if last is not None and progress <= last:
            yield Violation(message.ptr / "params" / "progress",
                            f"Progress for token {show(token)} went from {show(last)} to {show(progress)}; "
                            "progress must increase with each notification")
        seen.pop(key, None)  # re-inserted last: the oldest tokens are forgotten first
        seen[key] = progress if last is None else max(progress, last)
        if len(seen) > _MAX_TOKENS:
            del seen[next(iter(seen))]

    def check_exchange(self, exchange, session, ctx):
        # It only learns which tokens are done: it never finds anything (a plain function
        # returning an empty tuple, cheaper than a generator on every exchange).
        seen = session.__dict__.get(_STATE)
        if not seen:
            return ()  # no progress yet: the common case costs one lookup
        request = exchange.request
        meta = request.params.get("_meta")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        if token is None or request.sender != CLIENT or isinstance(token, (dict, list)):
            return ()
        key = id_key(token)
        if key not in seen:
            return ()
        result = exchange.response.result
        if result is not None and (isinstance(result.get("task"), dict) or result.get("resultType") == "task"):
            return ()  # a task was created (2025-11-25; 2026-07-28's tasks extension): its progress goes on
        seen[key] = _DONE
        return ()


def _reused(session, token) -> bool:
    """A pending client request now carries this token (tokens are unique only among active
    requests). Pending requests kept as stubs lack `_meta`, and many are not searched: then
    assume so, and judge nothing."""
    if len(session.pending) > _MAX_PENDING_SCAN:
        return True
    for (asker, _), request in session.pending.items():
        if asker != CLIENT:
            continue
        if request.stub:
            return True
        meta = request.params.get("_meta")
        if isinstance(meta, dict) and meta.get("progressToken") == token:
            return True
    return False
