from mcplint import versions
from mcplint.capture.content import final_result, json_equal, parsed_text
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class StructuredContentNotMirrored(TrafficRule):
    r"""A tool result's `structuredContent` is not repeated as serialized JSON in a text block.

    ## Why
    For backward compatibility a tool that returns `structuredContent` should also
    return its serialized JSON in a `text` content block: clients that only read
    `content` (most chat clients, and every client older than 2025-06-18) otherwise
    show the model something else than the structured value. Text blocks are compared
    by parsing them as JSON, so formatting and key order do not matter. Plain text
    that only describes the value (`"5"` for `{"result": 5}`, a file's text for
    `{"content": "<text>"}`) is not the serialized JSON.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "text_stats", "arguments": {"text": "Model Context Protocol"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\n  \"words\": 3,\n  \"characters\": 22\n}"}], "structuredContent": {"characters": 22, "words": 3}}}}
    ```
    """

    code = "MCP723"
    name = "structured-content-not-mirrored"
    checklist = (14,)
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_06_18)
    needs = "tools/call result with structuredContent"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call":
            return
        # The result alone, not content's shared walk: this rule runs in split's child.
        result = final_result(exchange)
        if result is None or "structuredContent" not in result:
            return
        if self.checklist[0] not in session.assessed:
            session.assess(self)
        value = result["structuredContent"]
        blocks = result.get("content")
        texts = [(i, b["text"]) for i, b in enumerate(blocks if isinstance(blocks, list) else [])
                 if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        opener = "{" if isinstance(value, dict) else "[" if isinstance(value, list) else None
        for _, text in texts:
            if opener and text[:64].lstrip()[:1] != opener:
                continue  # cannot be the serialized JSON: skip the parse
            parsed, parsed_value = parsed_text(text)
            if parsed and json_equal(parsed_value, value):
                return
        base = exchange.response.ptr / "result"
        if not texts:
            yield Violation(base / "structuredContent",
                            "structuredContent has no text block with its serialized JSON; add one for clients "
                            "that read only content")
            return
        index, text = texts[0]
        hint = _what_the_text_is(text, value)
        yield Violation(base / "structuredContent",
                        f"structuredContent is not mirrored as serialized JSON in a text block ({hint}); "
                        "put json.dumps(structuredContent) in a text block",
                        related=((base / "content" / index / "text", "the text block"),))


def _what_the_text_is(text: str, value) -> str:
    if isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        parsed, parsed_value = parsed_text(text)
        if (isinstance(inner, str) and inner == text) or (parsed and json_equal(parsed_value, inner)):
            return f"the text block holds the value of '{key}' unwrapped, not the object"
    parsed, _ = parsed_text(text)
    return "the text block holds different JSON" if parsed else "the text block is not JSON"
