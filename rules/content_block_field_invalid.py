from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentBlockFieldInvalid(ContentRule):
    r"""A content block or resource contents object lacks a required member or has one of the wrong type.

    ## Why
    Every block type has required members: `text` for text blocks, `data` and
    `mimeType` for images and audio, `uri` and `name` for resource links, and for an
    embedded resource a `resource` object with a `uri` and a `text` or `blob` string
    (the same goes for each item of a `resources/read` result). `size` is an integer
    and `_meta` an object. A block missing them fails the protocol's schema and is
    dropped or rejected by clients.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}, {"type": "resource_link", "uri": "demo://resource/static/1", "name": "Resource 1", "size": "2 KB"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png"}, {"type": "resource_link", "uri": "demo://resource/static/1", "name": "Resource 1", "size": 2048}]}}}
    ```
    """

    code = "MCP726"
    name = "content-block-field-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, kind in walk.typed:
            for path, message in content.field_problems(block, kind, version):
                yield Violation(content.at(ptr, path), message)
        for ptr, contents in walk.contents:
            for path, message in content.contents_problems(contents, version):
                yield Violation(content.at(ptr, path), message)
