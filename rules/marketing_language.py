from functools import lru_cache

from mcplint.document import listing
from mcplint.document.tool_texts import joined_texts, non_ascii_texts
from mcplint.document.text_census import TextGate
from mcplint.findings import Severity
from mcplint.marketing import ADVICE, MAX_EXAMPLE_LOOKS, MarketingMatcher, ends_named_values, value_words
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
    """A tool's, prompt's or resource's text uses marketing, overly friendly or vague language.

    ## Why
    Tool text is an instruction to a model, not an advertisement. Hype ("blazing
    fast", "best-in-class", "powerful", "seamlessly") tells the model nothing it can
    act on and can push it to prefer one tool over another for the wrong reason.
    Chatty phrases ("Hey there!", "Happy to help", "!!!") waste tokens, and vague
    endings ("and more", "etc.", "stuff") hide what the tool really does. (An open
    ending after values shown as examples is not reported: two or more quoted values,
    `Can be "guide", "report", etc.`, each perhaps followed by what it means,
    `Use 'hour' for recent news, 'day' for today, etc.`, a list in parentheses,
    `(main, master, etc.)`, or one after "e.g." or "such as": the examples show the
    form of an open set. Nor is one after two or more of the parameter's own `enum`
    values, `hour, day, week, etc.`: the enum lists the rest.)

    Prompt and resource descriptions are read by the model in the same way.

    Phrases are matched as whole words, case-insensitively, in the name, `title`,
    `description`, `annotations.title`, and parameter titles and descriptions; and in
    the name, `title` and `description` of prompts, the `title` and `description` of
    resources, resource templates and prompt arguments. (Not a resource's name: it
    often names the data, such as a file `awesome-mcp-servers.md`.) The
    list favours precision: words with an ordinary technical sense ("magic bytes",
    "seamless texture", "great circle") are not reported. Ban more phrases with
    `extra-words`, or allow built-in ones (by the phrase shown in the message) with
    `allow-words`.

    ## Bad
    ```json
    {"tools": [{"name": "search", "description": "A blazing fast, powerful search that finds docs, tickets, etc. Happy to help!!", "inputSchema": {"type": "object"}}]}
    ```

    ```json
    {"prompts": [{"name": "write_release_notes", "description": "Our best-in-class prompt for stunning release notes!"}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "search", "description": "Search docs and tickets by keyword; detect file types by their magic bytes.", "inputSchema": {"type": "object"}}]}
    ```

    ```json
    {"prompts": [{"name": "write_release_notes", "description": "Draft release notes from the merged pull requests of a milestone."}]}
    ```

    ```json
    {"tools": [{"name": "search", "description": "Search the web.", "inputSchema": {"type": "object", "properties": {
      "recency": {"type": "string", "enum": ["hour", "day", "week", "month", "year"],
                  "description": "Use 'hour' for very recent news, 'day' for today's updates, 'week' for this week, etc."}}}}]}
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
        for ptr, tool in self.candidates(doc, ctx):
            yield from self._check_tool(ptr, tool, ctx, *setup)
        matcher, allow = setup
        for text_ptr, what, text in doc.listing_texts():  # prompts, resources, templates
            # A resource's name often names its data (awesome-mcp-servers/README.md), not the server.
            if what.startswith("resource") and what.endswith(" name"):
                continue
            if matcher.may_match(text):
                yield from _found(text_ptr, what, text, matcher, allow, listing.noun_of(what))

    def candidates(self, doc, ctx):
        return _gate(_setup(ctx.options)[0]).candidates(doc)

    def check_tool(self, ptr, tool, ctx):
        return self._check_tool(ptr, tool, ctx, *_setup(ctx.options))

    def _check_tool(self, ptr, tool, ctx, matcher, allow):
        if _gate(matcher).ascii_clean(ctx.doc):  # its ASCII texts cannot match: pre-check the others alone
            gate = "\n".join(text for _, _, text in non_ascii_texts(ctx.doc, ptr, tool))
        else:
            gate = joined_texts(ctx.doc, ptr, tool)
        if not matcher.may_match(gate):  # one pass over all texts: most tools
            return
        values = _enum_values(ctx.doc, ptr, tool)
        closed = _closed_sets(ctx.doc, ptr, tool)
        for text_ptr, what, text in ctx.doc.texts(ptr, tool):
            yield from _found(text_ptr, what, text, matcher, allow, "tool", values,
                              closed.get(text_ptr.parent) if text_ptr[-1] == "description" else None)


@lru_cache(maxsize=64)
def _gate(matcher: MarketingMatcher) -> TextGate:
    """The matcher's pre-check over all the tools' texts at once (the words and symbols of
    joined texts are those of their parts); one per matcher, as the options make them."""
    return TextGate(f"marketing-ascii-clean-{id(matcher)}", matcher.may_match, matcher.may_match_words)


def _enum_values(doc, ptr, tool) -> frozenset[str]:
    """The tool's enum values, normalised: a description that names a value ('ultra-fast' for
    lowest latency) quotes the schema, it does not advertise."""
    values = set()
    for _, _, schema in doc.parameters(ptr, tool):
        enum = schema.get("enum") if isinstance(schema, dict) else None
        if isinstance(enum, list):
            values.update(_normal(v) for v in enum[:1000] if isinstance(v, str))
    return frozenset(values)


def _closed_sets(doc, ptr, tool) -> dict:
    """Parameter pointer -> its enum's string values (or its items' enum's), as ``value_words``:
    an open ending after some of them stands for the others, which the schema lists."""
    found = {}
    for param_ptr, _, schema in doc.parameters(ptr, tool):
        if not isinstance(schema, dict):
            continue
        enum = schema.get("enum")
        if not isinstance(enum, list) and isinstance(schema.get("items"), dict):
            enum = schema["items"].get("enum")
        if isinstance(enum, list):
            found[param_ptr] = frozenset(value_words(v) for v in enum[:1000] if isinstance(v, str))
    return found


def _normal(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def _found(text_ptr, what, text, matcher, allow, noun, values=frozenset(), closed=None):
    if what == "name" or what.endswith(" name"):
        text = text.replace("_", " ").replace("-", " ").replace(".", " ")
    found: dict[str, dict[str, None]] = {}
    within, looks = None, 0
    for kind, match, start in matcher.found_at(text):
        phrase = " ".join(match.split())
        if closed and kind == "vague" and looks < MAX_EXAMPLE_LOOKS:
            looks += 1
            if ends_named_values(phrase, text, start, closed):
                continue  # "hour, day, week, etc." of an enum that lists them all
        if phrase.lower() not in allow and _normal(phrase) not in values:
            found.setdefault(kind, {})[f"'{phrase}'"] = None
            within = within or (start, start + len(match))
    if not found:
        return
    parts = [f"{_KIND[kind]} ({', '.join(phrases)})" for kind, phrases in found.items()]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    advice = ADVICE[next(iter(found))] if len(found) == 1 else "say plainly what the tool does"
    if noun != "tool":
        advice = advice.replace("the tool", f"the {noun}")
    label = _FIELDS.get(what, what[0].upper() + what[1:])
    yield Violation(text_ptr, f"{label} uses {listed}; {advice}", within=within)
