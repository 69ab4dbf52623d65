import re

from mcplint.document.text_census import TextGate
from mcplint.findings import Severity
from mcplint.injection import find_markup, may_have_markup
from mcplint.regex_cache import regex
from mcplint.rule import Option, RuleOptions, ToolRule, Violation


class MarkupInText(ToolRule):
    """A tool's name, title or description contains HTML markup, script URLs or HTML comments.

    ## Why
    Clients show tool titles and descriptions in their UI, some of them as HTML or
    Markdown. A `<script>`, an `<img onerror=...>` or a `javascript:` link can then
    run in the client, and an HTML comment hides text from the rendered view while
    the model still reads it. Even harmless formatting tags are noise to the model.

    A tag is reported when its name is an HTML element and it is an active element
    (`<script>`, `<iframe>`, `<svg>`, ...), a void element (`<br>`, `<img>`), a closing
    tag, or has `name=value` attributes; any tag with an `on*=` handler is reported.
    Placeholders such as `<path>`, `<owner>/<repo>` or `<revision>:<path>` are not, and
    neither is a plain tag or an empty comment inside a Markdown code span or block
    (`` `<div style="page-break-before: always;">` `` shows the syntax a tool accepts, `` `<!-- -->` ``
    the syntax it refuses); active elements, handlers and comments holding text are reported
    wherever they stand.
    Instruction tags such as `<IMPORTANT>` are MCP402's.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather",
                "description": "Get the weather. <img src=x onerror=alert(document.cookie)>",
                "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "git_show",
                "description": "Shows a commit, or a file given as <revision>:<path>.",
                "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP403"
    name = "markup-in-text"
    checklist = (19,)
    category = "security"
    severity = Severity.WARNING

    class Options(RuleOptions):
        allowed_tags: list[str] = Option([], "HTML element names to accept in tool text (e.g. `[\"b\", \"code\"]`), "
                                             "unless they carry an event handler.")

    def candidates(self, doc, ctx):
        return _GATE.candidates(doc)

    def check_tool(self, ptr, tool, ctx):
        texts = _GATE.texts(ctx.doc, ptr, tool)  # most tools: none (no '<' at all)
        if not texts:
            return
        allowed = frozenset(tag.lower() for tag in ctx.options.allowed_tags)
        for text_ptr, what, text in texts:
            found = find_markup(text, allowed)
            if found and "`" in text:
                spans = _code_spans(text)
                found = [m for m in found if not _shown_as_code(m, spans)]
            if not found:
                continue
            first = found[0]
            quoted = first.text if len(first.text) <= 60 else first.text[:57] + "..."
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield Violation(
                text_ptr,
                f"{what[0].upper()}{what[1:]} contains {first.what} '{quoted}'{more}; "
                "write plain text: clients may render or execute markup",
                within=(first.index, first.index + len(first.text)),
            )


_CODE = regex(r"```.*?(?:```|$)|``[^`].*?``|`[^`\n]+`", re.S)


def _shown_as_code(match, spans) -> bool:
    """A plain tag, or an empty comment (`<!-- -->`: the syntax itself, hiding nothing), inside a
    code span or block is shown as written; active elements, handlers and comments with text are not
    excused there."""
    if match.what == "an HTML comment":
        if match.text[4:].removesuffix("-->").strip():
            return False
    elif match.what != "an HTML tag":
        return False
    return any(a <= match.index < b for a, b in spans)


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Markdown code blocks and spans: what they hold is shown as written, not rendered."""
    return [m.span() for m in _CODE.finditer(text)]


_GATE = TextGate("markup-ascii-clean", may_have_markup)  # find_markup finds nothing in a text it rules out
