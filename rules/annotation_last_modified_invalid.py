from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class AnnotationLastModifiedInvalid(ContentRule):
    r"""A content block's `annotations.lastModified` is not an ISO 8601 timestamp, or predates the version that defines it.

    ## Why
    `lastModified` (2025-06-18 and later) says when the content last changed, as an
    ISO 8601 timestamp such as `2025-01-12T15:00:58Z`. Clients sort and show it; a
    free-form date (`"yesterday"`, `"Jan 12"`) cannot be parsed, and in older versions
    the field does not exist.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_note", "arguments": {"name": "todo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Buy milk", "annotations": {"lastModified": "Sun Nov 22 2026"}}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_note", "arguments": {"name": "todo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Buy milk", "annotations": {"lastModified": "2026-11-22T02:10:22Z"}}]}}}
    ```
    """

    code = "MCP730"
    name = "annotation-last-modified-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, _ in walk.typed:
            annotations = block.get("annotations")
            if isinstance(annotations, dict) and "lastModified" in annotations:
                problem = content.last_modified_problem(annotations["lastModified"], version)
                if problem:
                    yield Violation(ptr / "annotations" / "lastModified", problem[:1].upper() + problem[1:])
