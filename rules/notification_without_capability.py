from mcplint import versions
from mcplint.capture.records import SERVER
from mcplint.capture.session import NOTIFICATION
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

# notification -> (capability, flag inside it that must be true, or None)
_NEEDS = {
    "notifications/tools/list_changed": ("tools", "listChanged"),
    "notifications/prompts/list_changed": ("prompts", "listChanged"),
    "notifications/resources/list_changed": ("resources", "listChanged"),
    "notifications/resources/updated": ("resources", "subscribe"),
    "notifications/message": ("logging", None),
}

# Using only negotiated capabilities is a SHOULD up to 2025-03-26 and a MUST from 2025-06-18 (lifecycle
# "Operation"); the flags listChanged/subscribe rest on that sentence alone, the capability itself on MUST.
_FLAGS_MUST = versions.since(versions.V2025_06_18)


class NotificationWithoutCapability(TrafficRule):
    """The server sends a notification its declared capabilities do not allow.

    ## Why
    Capabilities are a contract: a server that sends `notifications/tools/list_changed`
    must have declared `tools.listChanged`, `notifications/resources/updated` needs
    `resources.subscribe`, and log messages need `logging`. Clients that trust the
    declaration ignore (or reject) the rest, and the user never sees that the tool
    list changed. Judged against the capabilities of the initialize (or
    server/discover) result. A missing `listChanged` or `subscribe` flag is a warning
    before 2025-06-18, where using only negotiated capabilities was still a SHOULD.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1"}}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}
    ```
    """

    code = "MCP630"
    senders = frozenset({"server"})
    kinds = frozenset({"notification"})
    methods = frozenset(_NEEDS)
    name = "notification-without-capability"
    category = "protocol"
    severity = Severity.ERROR
    needs = "server notification"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != NOTIFICATION or message.method not in _NEEDS:
            return
        capabilities = session.server_capabilities
        if capabilities is None:
            return  # nothing declared in the capture: cannot judge
        capability, flag = _NEEDS[message.method]
        declared = capabilities.get(capability)
        if not isinstance(declared, dict):
            yield Violation(message.ptr / "method", f"Server sent {message.method} without declaring the "
                                                    f"{capability!r} capability; declare it or do not send this")
        elif flag is not None and declared.get(flag) is not True:
            yield Violation(message.ptr / "method", f"Server sent {message.method} without declaring "
                                                    f"{capability}.{flag}; set it to true or do not send this",
                            severity=None if ctx.version in _FLAGS_MUST else Severity.WARNING)
