from mcplint.capture.error_texts import is_generic, text_blocks
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ErrorMessageUnclear(TrafficRule):
    """An error message is empty or generic ("Error", "Internal error", "undefined", "[object Object]").

    ## Why
    The message of a JSON-RPC error and the text of an `isError` tool result are all a
    user or a model gets to work with. "Error", "undefined" or "[object Object]" (a
    JavaScript object turned into a string) says neither what failed nor what to do
    about it, so the model retries blindly and the user files a bug. Name the tool,
    parameter or resource, say what went wrong and, when possible, how to fix it.
    (A standard message such as "Method not found" for -32601 is clear enough.)

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "create_issue", "arguments": {"title": "Crash on start"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "Error: [object Object]"}], "isError": true}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "create_issue", "arguments": {"title": "Crash on start"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "GitHub rejected the issue: the token lacks the 'repo' scope"}], "isError": true}}}
    ```
    """

    code = "MCP709"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    name = "error-message-unclear"
    checklist = (10,)
    category = "protocol"
    severity = Severity.WARNING
    needs = "JSON-RPC error response or isError tool result"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != "server" or message.kind != "response":
            return
        error = message.error
        if error is not None:
            session.assess(self)
            text = error.get("message")
            if not isinstance(text, str):
                return  # MCP700
            if not text.strip():
                yield Violation(message.ptr / "error" / "message",
                                "error message is empty; say what failed and what to do about it")
            elif is_generic(text):
                yield Violation(message.ptr / "error" / "message",
                                f"error message {text!r} is generic; say what failed (which tool, parameter "
                                "or resource) and what to do about it")
            return
        result = message.result
        if result is None or result.get("isError") is not True:
            return
        session.assess(self)
        texts = [(i, t) for i, t in text_blocks(result) if t.strip()]
        if texts and all(is_generic(t) for _, t in texts):  # no text at all: MCP712
            index, text = texts[0]
            yield Violation(message.ptr / "result" / "content" / index / "text",
                            f"tool error text {text!r} is generic; say what failed and what to do about it")
