from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class StructuredContentNotObject(TrafficRule):
    r"""A tool result's `structuredContent` is not a JSON object in a version that requires one.

    ## Why
    In 2025-06-18 and 2025-11-25 `structuredContent` is a JSON object; only
    2026-07-28 allows any JSON value (an array, a number, a string). A client of
    those versions rejects a result whose `structuredContent` is a bare `5` or a list.
    Wrap the value in an object, e.g. `{"result": 5}`, and describe that object in
    the `outputSchema`.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "5"}], "structuredContent": 5}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\"result\": 5}"}], "structuredContent": {"result": 5}}}}
    ```
    """

    code = "MCP722"
    name = "structured-content-not-object"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = frozenset({versions.V2025_06_18, versions.V2025_11_25})
    needs = "tools/call, prompts/get or resources/read result"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call":
            return
        walk = content.walk(exchange, session.version)
        result = walk.result if walk is not None else None
        if result is None:
            return
        if self.checklist[0] not in session.assessed:
            session.assess(self)
        if "structuredContent" in result:
            problem = content.structured_content_problem(result["structuredContent"], session.version)
            if problem:
                yield Violation(exchange.response.ptr / "result" / "structuredContent", problem)
