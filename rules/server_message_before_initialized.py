from mcplint import versions
from mcplint.capture.http import request_of
from mcplint.capture.records import SERVER
from mcplint.capture.session import NOTIFICATION, REQUEST
from mcplint.capture.session_start import hold, in_unseen_session, released
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_ALLOWED = frozenset({"ping", "notifications/message"})


class ServerMessageBeforeInitialized(TrafficRule):
    """The server sends a request or notification other than ping or a log message before `notifications/initialized`.

    ## Why
    Up to protocol 2025-11-25 the client signals with `notifications/initialized` that
    it is ready for normal operation. Until then the server should send nothing but
    `ping` and log messages: a `sampling/createMessage`, `roots/list` or a
    list-changed notification can arrive before the client has finished setting up
    and be lost or rejected. A capture may begin mid-session: a message with no
    `initialize` before it is judged only if one comes later in the capture.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {"roots": {}}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {"roots": {}}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}, "logging": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "starting"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}}
    ```
    """

    code = "MCP627"
    senders = frozenset({"server"})
    kinds = frozenset({"request", "notification"})
    name = "server-message-before-initialized"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.until(versions.V2025_11_25)
    needs = "server request or notification"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind not in (REQUEST, NOTIFICATION) or session.initialized:
            return
        if message.method in _ALLOWED:
            return
        what = "request" if message.kind == REQUEST else "notification"
        violation = Violation(message.ptr / "method" if message.method else message.ptr,
                              f"Server sent the {what} {message.method!r} before notifications/initialized; "
                              "send only ping and log messages until the client has initialized")
        if session.initialize is not None:
            yield violation  # between the initialize result and notifications/initialized
        elif not in_unseen_session(request_of(message.record, session)):
            hold(session, self.code, violation)

    def check_session(self, session, ctx):
        yield from released(session, self.code)
