from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentDoubleEncoded(ContentRule):
    r"""A text block holds a JSON-stringified array of content blocks instead of the blocks themselves.

    ## Why
    A known bug in servers and proxies: the result's content blocks are serialized
    with `JSON.stringify` and wrapped in one text block, so the model reads
    `[{"type":"text","text":...}]` instead of the text, and images or resource links
    inside never reach the client as such. Return the blocks in `content` directly.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search_docs", "arguments": {"query": "pagination"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "[{\"type\":\"text\",\"text\":\"Pagination uses opaque cursors.\"}]"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search_docs", "arguments": {"query": "pagination"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Pagination uses opaque cursors."}]}}}
    ```
    """

    code = "MCP734"
    name = "content-double-encoded"
    checklist = (15,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"
    skip_plain = False  # plain text blocks are what it checks

    def check_walk(self, walk, version):
        for ptr, block, kind in walk.typed:
            if kind == "text" and isinstance(block.get("text"), str):
                count = content.double_encoded(block["text"])
                if count:
                    yield Violation(ptr / "text", f"Text block holds {count} JSON-encoded content block"
                                                  f"{'s' if count > 1 else ''}; put the blocks in content themselves")
