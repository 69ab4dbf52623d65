from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentAnnotationsInvalid(ContentRule):
    r"""A content block's `annotations` break the schema: audience roles, a priority outside 0 to 1, or the wrong types.

    ## Why
    Content annotations tell the client who a block is for and how much it matters:
    `audience` is an array of `"user"` and `"assistant"`, `priority` a number from 0
    (least) to 1 (most important), and `lastModified` a string. Clients filter and
    order content by them; values outside the schema (`"audience": "user"`,
    `"priority": 5`) are rejected or silently misread.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-annotated-message", "arguments": {"messageType": "error"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Error: Operation failed", "annotations": {"audience": "user", "priority": 10}}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-annotated-message", "arguments": {"messageType": "error"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Error: Operation failed", "annotations": {"audience": ["user", "assistant"], "priority": 1}}]}}}
    ```
    """

    code = "MCP729"
    name = "content-annotations-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, _ in walk.typed:
            if "annotations" in block:
                for path, message in content.annotation_problems(block["annotations"], version):
                    yield Violation(content.at(ptr / "annotations", path), message[:1].upper() + message[1:])
