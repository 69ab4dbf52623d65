from mcplint import versions
from mcplint.capture import media
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentBase64Invalid(ContentRule):
    r"""An image or audio block's `data`, or a resource's `blob`, is not valid base64.

    ## Why
    Binary content travels as standard base64 (RFC 4648, `+` and `/`, padded with
    `=`): image and audio `data` and resource `blob`s must be encoded that way.
    Clients decode it before showing or forwarding it; a data: URL, the URL-safe
    alphabet, missing padding or stray characters make the decode fail, and the image
    or file is lost.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-tiny-image", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png"}]}}}
    ```
    """

    code = "MCP727"
    name = "content-base64-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, kind in walk.typed:
            if kind in ("image", "audio") and isinstance(block.get("data"), str):
                problem = media.base64_problem(block["data"])
                if problem:
                    yield Violation(ptr / "data", f"{kind.capitalize()} data {problem}")
        for ptr, contents in walk.contents:
            if isinstance(contents.get("blob"), str):
                problem = media.base64_problem(contents["blob"])
                if problem:
                    yield Violation(ptr / "blob", f"Resource blob {problem}")
