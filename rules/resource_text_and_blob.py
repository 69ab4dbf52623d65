from mcplint import versions
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ResourceTextAndBlob(ContentRule):
    r"""A resource's contents carry both `text` and `blob`.

    ## Why
    Resource contents are either text (`text`, for content that is representable as
    text) or binary (`blob`, base64), never both. The schema's union lets both
    through, but a client then has to guess which one is the content, and the two
    may disagree.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "/srv/sample/README.txt"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource", "resource": {"uri": "file:///srv/sample/README.txt", "mimeType": "text/plain", "text": "Throwaway folder", "blob": "VGhyb3dhd2F5IGZvbGRlcg=="}}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "/srv/sample/README.txt"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "resource", "resource": {"uri": "file:///srv/sample/README.txt", "mimeType": "text/plain", "text": "Throwaway folder"}}]}}}
    ```
    """

    code = "MCP731"
    name = "resource-text-and-blob"
    checklist = (15,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, contents in walk.contents:
            if "text" in contents and "blob" in contents:
                yield Violation(ptr / "blob", "Resource contents carry both text and blob; send text for textual content "
                                              "or blob (base64) for binary content, not both")
