from mcplint.capture.error_texts import text_blocks
from mcplint.capture.ordinary import PLAIN_SUCCESS
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ToolErrorUnexplained(TrafficRule):
    """An `isError` tool result carries no text that explains what failed.

    ## Why
    `isError: true` tells the client that the tool failed; the content is where the
    server says why. The client passes it to the model so it can correct the call or
    explain the failure to the user. With empty `content`, an empty text, or only an
    image, the model learns nothing and usually retries the same call.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "git_log", "arguments": {"repo_path": "/srv/repos/site", "max_count": 5}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 8, "result": {"content": [], "isError": true}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "git_log", "arguments": {"repo_path": "/srv/repos/site", "max_count": 5}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 8, "result": {"content": [{"type": "text", "text": "/srv/repos/site is not a git repository"}], "isError": true}}}
    ```
    """

    code = "MCP712"
    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    name = "tool-error-unexplained"
    checklist = (11,)
    category = "protocol"
    severity = Severity.WARNING
    needs = "invalid-params (-32602) error or isError tool result"
    quiet_on = frozenset({PLAIN_SUCCESS})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.sender != "server" or message.kind != "response":
            return
        result = message.result
        if result is None or result.get("isError") is not True:
            return
        session.assess(self)
        if any(text.strip() for _, text in text_blocks(result)):
            return
        where = message.ptr / "result" / ("content" if "content" in result else "isError")
        yield Violation(where, "isError result has no text saying what failed; add a text content block "
                               "that explains the error and how to fix the call")
