from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ResourceBlockConfused(ContentRule):
    r"""A `resource` block is written like a `resource_link`, or a `resource_link` like an embedded resource.

    ## Why
    The two blocks look alike but are built differently: an embedded `resource` block
    wraps the contents in `resource: {uri, text | blob}`, while a `resource_link`
    (2025-06-18 and later) carries `uri` and `name` itself and no contents. A block
    that mixes the two shapes fails the schema, and clients either drop it or fetch
    nothing.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find_notes", "arguments": {"query": "todo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource", "uri": "file:///srv/sample/notes/todo.md", "name": "todo.md", "mimeType": "text/markdown"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find_notes", "arguments": {"query": "todo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource_link", "uri": "file:///srv/sample/notes/todo.md", "name": "todo.md", "mimeType": "text/markdown"}]}}}
    ```
    """

    code = "MCP732"
    name = "resource-block-confused"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, _ in walk.typed:
            problem = content.confusion(block)
            if problem:
                yield Violation(content.at(ptr, problem[0]), problem[1])
