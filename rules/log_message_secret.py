from mcplint.capture.outputs import strings_in
from mcplint.capture.session import NOTIFICATION, SERVER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.secrets import new_secret


class LogMessageSecret(TrafficRule):
    """A log notification (`notifications/message`) contains a credential.

    ## Why
    Log messages must not contain credentials or secrets (logging page, "Security",
    every version). The client shows them to the user, stores them and may pass them
    to the model, so a token in a log line is a leaked token. The same detector as
    for tool output (MCP422) is used: a credential's own prefix or structure is
    needed, and vendors' documented example keys are not reported. The message
    shows only the first characters.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "debug", "logger": "http", "data": {"request": "GET /repos", "authorization": "token ghp_aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zCaB3d"}}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "debug", "logger": "http", "data": {"request": "GET /repos", "authorization": "token ghp_…(redacted)"}}}}
    ```
    """

    code = "MCP636"
    name = "log-message-secret"
    checklist = (19,)
    category = "security"
    severity = Severity.ERROR  # "must not contain credentials or secrets"
    senders = frozenset({"server"})
    kinds = frozenset({"notification"})
    methods = frozenset({"notifications/message"})
    needs = "server log notification"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != NOTIFICATION or message.method != "notifications/message":
            return
        session.assess(self)
        params = message.params
        reported: set[str] = set()
        for key in ("logger", "data"):
            if key not in params:
                continue
            for ptr, _what, text in strings_in(params[key], message.ptr / "params" / key, key):
                if (new := new_secret(text, reported)) is None:
                    continue
                first, more = new
                yield Violation(ptr, f"Log message contains {first.what} ('{first.redacted}'){more}; "
                                     "redact credentials before logging and rotate this one",
                                within=(first.index, first.index + len(first.text)))
