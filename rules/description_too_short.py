from mcplint.findings import Severity
from mcplint.lexicon import count_words
from mcplint.rule import Option, RuleOptions, ToolRule, Violation


class DescriptionTooShort(ToolRule):
    """A tool description has too few words to guide a model.

    ## Why
    One or two words ("Search", "Gets data", "Switches branches") mostly repeat the
    tool's name. A model choosing between tools needs to know what the tool acts on,
    what it returns, and when to use it. The threshold is the `min-words` option
    (default 3).

    Words are runs of letters and digits. Chinese, Japanese, Thai, Lao, Khmer and
    Burmese are written without spaces between words, so there a run counts one
    word per two Han or kana characters, or per about four Thai, Lao, Khmer or
    Burmese letters (a zero-width space between words splits them): "获取指定城市的天气预报"
    is six words, "搜索" one.

    Only tool descriptions are checked: short parameter descriptions ("Target
    unit") are normal. Missing or empty descriptions are reported by MCP210.

    ## Bad
    ```json
    {"tools": [{"name": "git_checkout", "description": "Switch branches", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "git_checkout", "description": "Switch the working tree to an existing branch.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP212"
    name = "description-too-short"
    checklist = (2,)
    category = "description"
    severity = Severity.WARNING

    class Options(RuleOptions):
        min_words: int = Option(3, "Fewest words a tool description should have.")

    def candidates(self, doc, ctx):
        minimum = ctx.options.min_words  # each distinct description counted once
        return doc.census().with_text(
            "description", lambda text: bool(text.strip()) and count_words(text, enough=minimum) < minimum)

    def check_tool(self, ptr, tool, ctx):
        text = tool.get("description")
        if not isinstance(text, str) or not text.strip():
            return
        minimum = ctx.options.min_words
        count = count_words(text, enough=minimum)  # stops counting once there are enough
        if count < minimum:
            words = "word" if count == 1 else "words"
            yield Violation(
                ptr / "description",
                f"Description '{text.strip()}' has only {count} {words}; say what the tool acts on, "
                "what it returns and when to use it",
            )
