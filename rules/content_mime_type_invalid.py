from mcplint import versions
from mcplint.capture import media
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentMimeTypeInvalid(ContentRule):
    r"""A content block's or resource's `mimeType` is not a MIME type, or does not match the block or its data.

    ## Why
    Clients pick a renderer by `mimeType`: an image block needs an `image/*` type,
    an audio block an `audio/*` type, and the type should be what the bytes are. A
    value that is not `type/subtype` (`"png"`, `"PNG image"`), the unregistered
    `image/jpg`, or `image/jpeg` on PNG bytes makes clients refuse or mis-render the
    content.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "png"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png"}, {"type": "resource_link", "uri": "demo://resource/static/1", "name": "Resource 1", "mimeType": "text/plain; charset=utf-8"}]}}}
    ```
    """

    code = "MCP728"
    name = "content-mime-type-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, kind in walk.typed:
            mime = block.get("mimeType")
            if isinstance(mime, str):
                data = block.get("data") if kind in ("image", "audio") else None
                valid = isinstance(data, str) and media.base64_problem(data) is None
                problem = media.mime_problem(mime, kind if kind in ("image", "audio") else None, data if valid else None)
                if problem:
                    yield Violation(ptr / "mimeType", problem[:1].upper() + problem[1:])
        for ptr, contents in walk.contents:
            mime = contents.get("mimeType")
            if isinstance(mime, str):
                problem = media.mime_problem(mime)
                if problem:
                    yield Violation(ptr / "mimeType", problem[:1].upper() + problem[1:])
