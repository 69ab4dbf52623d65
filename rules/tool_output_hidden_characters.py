from mcplint.capture.output_rule import OutputRule
from mcplint.findings import Severity
from mcplint.rule import Violation
from mcplint.unicode_scan import context_before, find_hidden, may_hold_hidden


class ToolOutputHiddenCharacters(OutputRule):
    r"""A tool result contains ANSI escape sequences or invisible or control characters.

    ## Why
    Tool results go to the model and often to the user's screen. An ANSI escape
    sequence can recolour, erase or overwrite what a terminal client shows; zero-width
    characters, bidi controls and Unicode tag characters hide text from the person
    reading the result while the model still reads it (tag characters can spell a
    whole instruction). Servers must sanitize tool output, so strip these before
    returning text: colourised command output, text copied from web pages and
    terminal captures are the usual sources.

    Checked: the text of content blocks and embedded text resources, every string in
    `structuredContent`, and JSON-RPC error messages of tools/call answers. Tabs,
    newlines, CRLF, ZWJ inside emoji and scripts that need it, a single variation
    selector and LRM/RLM in right-to-left text are fine.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "run_tests", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "\u001b[32m12 passed\u001b[0m in 0.4s"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "run_tests", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "12 passed in 0.4s\n\tno warnings"}]}}}
    ```
    """

    code = "MCP420"
    name = "tool-output-hidden-characters"
    checklist = (19,)
    category = "security"
    severity = Severity.WARNING
    needs = "tools/call result"

    # ASCII text of printable characters, tabs and newlines hides nothing: find_hidden's regex is skipped.
    suspect = staticmethod(may_hold_hidden)

    def check_texts(self, exchange, answer, texts):
        reported: set[str] = set()
        for ptr, what, text in texts:
            hidden = find_hidden(text)
            if not hidden:
                continue
            first = hidden[0]
            if first.label in reported:  # structuredContent mirroring the same text
                continue
            reported.add(first.label)
            before = context_before(text, first.index)
            where = f"at character {first.index + 1}" + (f" (after '{before}')" if before else " (at the start)")
            more = f", and {len(hidden) - 1} more" if len(hidden) > 1 else ""
            yield Violation(ptr, f"Tool output ({what}) contains {first.label} {where}{more}; strip escape "
                                 "sequences and invisible characters from tool results",
                            within=(first.index, first.index + len(first.text)))
