from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ResultContentShapeInvalid(ContentRule):
    r"""A tools/call, prompts/get or resources/read result lacks its content array or has it in the wrong shape.

    ## Why
    A `CallToolResult` must carry `content`, an array of content blocks (it may be
    empty, but it must be there, even next to `structuredContent`), and `isError`
    is a boolean. A `GetPromptResult` holds `messages`, each with a `role` of `user`
    or `assistant` and one content block; a `ReadResourceResult` holds `contents`.
    Clients index into these arrays without checking, so a missing array, a string
    instead of an array, or `isError: "true"` breaks them.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"structuredContent": {"temperature": 4}, "isError": "false"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\"temperature\": 4}"}], "structuredContent": {"temperature": 4}, "isError": false}}}
    ```
    """

    code = "MCP724"
    name = "result-content-shape-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"
    skip_plain = False  # plain text blocks are what it checks

    def check_walk(self, walk, version):
        problems = content.result_shape_problems(walk.exchange.method, walk.result)
        if problems:  # (the pointer is built only then: every result of a capture comes here)
            base = walk.exchange.response.ptr / "result"
            for path, message in problems:
                yield Violation(content.at(base, path), message)
