from mcplint import versions
from mcplint.capture import content
from mcplint.findings import Severity
from mcplint.capture.content_rule import ContentRule
from mcplint.rule import Violation


class ContentMetaInvalid(ContentRule):
    r"""A content block or resource contents object has `_meta` where the version defines none, or `_meta` keys that break the naming rules.

    ## Why
    `_meta` on content blocks and resource contents exists from 2025-06-18 on; in
    older versions only requests, notifications and results carry it, so put the
    metadata in the result's `_meta`. From 2025-06-18 its keys follow the `_meta` key
    grammar (an optional reverse-DNS prefix ending in `/`, then a name that starts and
    ends with a letter or digit), and prefixes whose second label is
    `modelcontextprotocol` or `mcp` are reserved for MCP itself.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "It is 4 degrees in Oslo.", "_meta": {"io.modelcontextprotocol/source": "met.no", "-cached-": true}}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "It is 4 degrees in Oslo.", "_meta": {"com.example/source": "met.no", "cached": true}}]}}}
    ```
    """

    code = "MCP733"
    name = "content-meta-invalid"
    checklist = (15,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.ALL
    needs = "tools/call, prompts/get or resources/read result"

    def check_walk(self, walk, version):
        for ptr, block, _ in walk.typed:
            for path, message in content.meta_problems(block, version, "content blocks"):
                yield Violation(content.at(ptr, path), message[:1].upper() + message[1:], at_key=len(path) > 1)
        for ptr, contents in walk.contents:
            for path, message in content.meta_problems(contents, version, "resource contents"):
                yield Violation(content.at(ptr, path), message[:1].upper() + message[1:], at_key=len(path) > 1)
