from functools import lru_cache

from mcplint.document.manifest import joined_texts
from mcplint.findings import Severity
from mcplint.lexicon import ADVICE, MarketingMatcher
from mcplint.rule import Option, RuleOptions, ToolRule, Violation

_FIELDS = {"name": "Tool name", "title": "Tool title", "description": "Tool description",
           "annotations.title": "Tool annotations.title"}
_KIND = {"hype": "marketing language", "friendly": "overly friendly language",
         "vague": "vague language", "banned": "banned wording"}


@lru_cache(maxsize=16)
def _matcher(extra: tuple[str, ...], allow: tuple[str, ...]):
    return MarketingMatcher(extra, allow)


def _setup(options) -> tuple[MarketingMatcher, tuple[str, ...]]:
    """The matcher for the rule's options, and the allowed phrases (lower case)."""
    allow = tuple(w.strip().lower() for w in options.allow_words)
    return _matcher(tuple(options.extra_words), allow), allow


class MarketingLanguage(ToolRule):
    """A tool's text uses marketing, overly friendly or vague language.

    ## Why
    Tool text is an instruction to a model, not an advertisement. Hype ("blazing
    fast", "best-in-class", "powerful", "seamlessly") tells the model nothing it can
    act on and can push it to prefer one tool over another for the wrong reason.
    Chatty phrases ("Hey there!", "Happy to help", "!!!") waste tokens, and vague
    endings ("and more", "etc.", "stuff") hide what the tool really does.

    Phrases are matched as whole words, case-insensitively, in the name, `title`,
    `description`, `annotations.title`, and parameter titles and descriptions. The
    list favours precision: words with an ordinary technical sense ("magic bytes",
    "seamless texture", "great circle") are not reported. Ban more phrases with
    `extra-words`, or allow built-in ones (by the phrase shown in the message) with
    `allow-words`.

    ## Bad
    ```json
    {"tools": [{"name": "search", "description": "A blazing fast, powerful search that finds docs, tickets, etc. Happy to help!!", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "search", "description": "Search docs and tickets by keyword; detect file types by their magic bytes.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP221"
    name = "marketing-language"
    checklist = (3,)
    category = "description"
    severity = Severity.WARNING

    class Options(RuleOptions):
        extra_words: list[str] = Option([], "More words or phrases to report.")
        allow_words: list[str] = Option([], "Built-in phrases not to report, as named in the messages.")

    def check(self, doc, ctx):
        setup = _setup(ctx.options)  # once per document, not per tool
        for ptr, tool in doc.tools():
            if isinstance(tool, dict):
                yield from self._check_tool(ptr, tool, ctx, *setup)

    def check_tool(self, ptr, tool, ctx):
        return self._check_tool(ptr, tool, ctx, *_setup(ctx.options))

    def _check_tool(self, ptr, tool, ctx, matcher, allow):
        if not matcher.may_match(joined_texts(ctx.doc, ptr, tool)):  # one pass over all texts: most tools
            return
        for text_ptr, what, text in ctx.doc.texts(ptr, tool):
            if what == "name":
                text = text.replace("_", " ").replace("-", " ").replace(".", " ")
            found: dict[str, dict[str, None]] = {}
            for kind, match in matcher.findall(text):
                phrase = " ".join(match.split())
                if phrase.lower() not in allow:
                    found.setdefault(kind, {})[f"'{phrase}'"] = None
            if not found:
                continue
            parts = [f"{_KIND[kind]} ({', '.join(phrases)})" for kind, phrases in found.items()]
            listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
            advice = ADVICE[next(iter(found))] if len(found) == 1 else "say plainly what the tool does"
            label = _FIELDS.get(what, what[0].upper() + what[1:])
            yield Violation(text_ptr, f"{label} uses {listed}; {advice}")
