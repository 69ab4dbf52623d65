from mcplint.capture.errors import is_int, server_error
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ErrorObjectMalformed(TrafficRule):
    """A JSON-RPC error has no integer `code` or no string `message`.

    ## Why
    Every JSON-RPC error object carries an integer `code` and a string `message`
    (`data` is optional). Clients dispatch on the code: a string such as `"-32602"`,
    a float such as `-32602.5`, or a missing code makes typed SDKs reject the whole
    response, so the caller sees a parse failure instead of the server's error. The
    same goes for an `error` that is not an object at all.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "file:///notes/missing.md"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": "NOT_FOUND", "message": "Resource file:///notes/missing.md not found"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "file:///notes/missing.md"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32002, "message": "Resource file:///notes/missing.md not found"}}}
    ```
    """

    code = "MCP700"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    errors_only = True
    name = "error-object-malformed"
    checklist = (8,)
    category = "protocol"
    severity = Severity.ERROR
    needs = "JSON-RPC error response"

    def check_message(self, message, session, ctx):
        if message.sender != "server" or message.kind != "response" or "error" not in message.data:
            return
        if message.data["error"] is None and "result" in message.data:
            return  # "error": null beside a result: the envelope rules' result-xor-error finding
        session.assess(self)
        where = message.ptr / "error"
        error = server_error(message)
        if error is None:
            yield Violation(where, "error must be an object with an integer code and a string message")
            return
        code = error.get("code")
        if "code" not in error:
            yield Violation(where, "error has no code; add an integer JSON-RPC error code such as -32602")
        elif not is_int(code):
            kind = "a string" if isinstance(code, str) else "a float" if isinstance(code, float) else "not an integer"
            yield Violation(where / "code", f"error code {code!r} is {kind}; JSON-RPC error codes are integers")
        text = error.get("message")
        if "message" not in error:
            yield Violation(where, "error has no message; add a string that says what failed")
        elif not isinstance(text, str):
            yield Violation(where / "message", "error message must be a string")
