from mcplint.capture.session import NOTIFICATION, SERVER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show

# RFC 5424 severities, the schema's LoggingLevel (logging page, every version)
_LEVELS = frozenset({"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"})


class LogLevelInvalid(TrafficRule):
    """A log notification (`notifications/message`) lacks a valid `level`.

    ## Why
    Every log message carries `level`, one of the eight RFC 5424 names the schema's
    `LoggingLevel` lists: `debug`, `info`, `notice`, `warning`, `error`, `critical`,
    `alert`, `emergency` (logging page, every version). Clients filter and colour log
    messages by level, and `logging/setLevel` compares against it: a missing level,
    `"warn"`, `"fatal"` or `"INFO"` cannot be placed, and strict clients drop it.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warn", "data": "disk almost full"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warning", "logger": "storage", "data": "disk almost full"}}}
    ```
    """

    code = "MCP635"
    name = "log-level-invalid"
    category = "protocol"
    severity = Severity.ERROR  # required by the schema, an enum
    senders = frozenset({"server"})
    kinds = frozenset({"notification"})
    methods = frozenset({"notifications/message"})
    needs = "server log notification"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != NOTIFICATION or message.method != "notifications/message":
            return
        params = message.params
        if "level" not in params:
            yield Violation(message.ptr, "Log notification lacks 'level'; set one of " + ", ".join(sorted(_LEVELS)))
        elif not isinstance(params["level"], str) or params["level"] not in _LEVELS:
            yield Violation(message.ptr / "params" / "level",
                            f"Log level {show(params['level'])} is not one of the RFC 5424 names "
                            "(debug, info, notice, warning, error, critical, alert, emergency)")
