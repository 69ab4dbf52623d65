from mcplint.document.manifest import joined_texts, non_ascii_texts
from mcplint.document.text_census import text_census
from mcplint.findings import Severity
from mcplint.injection import find_markup, may_have_markup
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
    Placeholders such as `<path>`, `<owner>/<repo>` or `<revision>:<path>` are not.
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

    ## Options
    `allowed-tags`: HTML element names to accept (e.g. `["b", "code"]`), unless they
    carry an event handler.
    """

    code = "MCP403"
    name = "markup-in-text"
    checklist = (19,)
    category = "security"
    severity = Severity.WARNING

    class Options(RuleOptions):
        allowed_tags: list[str] = Option([], "HTML element names to accept in tool text.")

    def candidates(self, doc, ctx):
        if not _ascii_clean(doc):
            return doc.tool_objects()
        texts = text_census(doc)  # and the other texts, all at once too
        return texts.non_ascii_tools if may_have_markup(texts.non_ascii_text) else []

    def check_tool(self, ptr, tool, ctx):
        if _ascii_clean(ctx.doc):  # no ASCII text of any tool can hold markup
            texts = non_ascii_texts(ctx.doc, ptr, tool)
        elif may_have_markup(joined_texts(ctx.doc, ptr, tool)):  # cheap: no '<' at all
            texts = ctx.doc.texts(ptr, tool)
        else:
            return
        allowed = frozenset(tag.lower() for tag in ctx.options.allowed_tags)
        for text_ptr, what, text in texts:
            found = find_markup(text, allowed)
            if not found:
                continue
            first = found[0]
            quoted = first.text if len(first.text) <= 60 else first.text[:57] + "..."
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield Violation(
                text_ptr,
                f"{what[0].upper()}{what[1:]} contains {first.what} '{quoted}'{more}; "
                "write plain text: clients may render or execute markup",
            )


def _ascii_clean(doc) -> bool:
    """Whether no ASCII text of any tool can hold markup: one pre-check over all of them at
    once (most documents); ``find_markup`` finds nothing in a text it rules out."""
    return doc.memo("markup-ascii-clean", lambda: not may_have_markup(text_census(doc).ascii_text))
