from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentBlockTypeInvalid(ContentRule):
    r"""A content block has no `type`, an unknown one, or one the session's protocol version does not define.

    ## Why
    Each version defines a closed set of content blocks: `text`, `image` and
    `resource` in 2024-11-05, plus `audio` from 2025-03-26 and `resource_link` from
    2025-06-18. A client dispatches on `type`; an unknown type (`"json"`, `"markdown"`,
    `"image_url"`) or one newer than the negotiated version is dropped or rejected, so
    the model never sees that part of the result.

    ## Bad
    ```jsonl protocol=2025-03-26
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_files", "arguments": {"path": "/srv/sample"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource_link", "uri": "file:///srv/sample/README.txt", "name": "README.txt"}, {"type": "json", "json": {"files": 1}}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_files", "arguments": {"path": "/srv/sample"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource_link", "uri": "file:///srv/sample/README.txt", "name": "README.txt"}, {"type": "text", "text": "{\"files\": 1}"}]}}}
    ```
    """

    code = "MCP725"
    name = "content-block-type-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block in walk.blocks:
            problem = content.type_problem(block, version)
            if problem:
                yield Violation(content.at(ptr, problem[0]), problem[1])
