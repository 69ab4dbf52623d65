from mcplint.capture.envelope import http_request_message, valid_id
from mcplint.capture.errors import bad_request_kind
from mcplint.capture.records import CLIENT, SERVER
from mcplint.capture.session import RESPONSE, id_key
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show


class ResponseIdUnmatched(TrafficRule):
    """A server response's id matches no request the client is waiting for.

    ## Why
    A response echoes the id of the request it answers. An id the client never sent,
    or one already answered (a second response to the same request), is dropped or,
    worse, resolves the wrong pending call. Common causes: ids converted between
    string and number, a counter shared between sessions, or a retry path that
    answers twice. (A capture that starts in the middle of a session shows this
    for responses to requests it did not record.)

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "prompts/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": "5", "result": {"prompts": []}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "prompts/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"prompts": []}}}
    ```
    """

    code = "MCP615"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    name = "response-id-unmatched"
    category = "protocol"
    severity = Severity.WARNING
    needs = "server response"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != RESPONSE or not valid_id(message.id):
            return  # a null or missing id is MCP618's, a malformed one MCP611's
        if (CLIENT, id_key(message.id)) in session.pending or session.forgot_pending:
            return  # (past 50,000 unanswered requests new ones are not kept: no verdict then)
        fix = "echo the id of the request being answered, once"
        if message.record.http:
            sent = http_request_message(message.record, session)
            if sent is not None and "method" in sent and "id" not in sent:
                return  # an answer to a notification: MCP614
            if sent is not None and valid_id(sent.get("id")):
                fix = f"echo the id of the request it answers ({show(sent['id'])})"
            elif _unreadable(message.record, session):
                fix = 'the request it answers has no id that could be read, so answer with "id": null'
        yield Violation(message.ptr / "id", f"Response id {show(message.id)} matches no pending request; {fix}")


def _unreadable(record, session) -> bool:
    """The HTTP exchange of ``record`` began with malformed JSON, an invalid request or a batch."""
    request = record.request if record.request is not None else session.last_request
    if request is None:
        return False
    return bad_request_kind(request) is not None or isinstance(request.message, list)
