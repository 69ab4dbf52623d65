import re
from functools import lru_cache

from mcplint.document.tool_texts import non_ascii_texts
from mcplint.document.text_census import text_census
from mcplint.emoji import find_emoji, may_contain_emoji
from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import ToolRule, Violation

_FIELDS = {"name": "Tool name", "title": "Tool title", "description": "Tool description",
           "annotations.title": "Tool annotations.title"}


class EmojiInText(ToolRule):
    """A tool's, prompt's or resource's name, title, description or parameter text contains emoji.

    ## Why
    Tool text is read by a model and shown to people in approval prompts. Emoji add
    tokens but no meaning, render differently (or as boxes) across clients and
    terminals, and make a tool list look like an advertisement. Say it in words.
    The same holds for prompts and resources: clients show their names and titles in
    menus, and a resource's description is meant as a hint to the model.

    Real emoji are reported: pictographs (🚀), symbols with the emoji selector
    U+FE0F (⚠️), keycaps (1️⃣), flags (🇫🇷) and ZWJ sequences (👨‍👩‍👧). Text symbols
    such as °, €, →, ✓, ©, letters of any script, and math signs are fine, and so is
    an emoji quoted alone as an example of a value (`like '📝' or '🚀'` for a parameter
    that takes an icon), or given as an example after "e.g.", "for example" or "such
    as" in the text of a parameter (or tool) about emoji or reactions (`The emoji to
    react with (e.g. 👍)`). Checked:
    the name, `title`, `description`, `annotations.title`, and the `title` and
    `description` of every parameter in `inputSchema` and `outputSchema`; likewise
    the name, `title` and `description` of every prompt, resource and resource
    template, and the `title` and `description` of prompt arguments (prompts/list,
    resources/list and resources/templates/list results, or a server listing holding
    them). Each text is reported once, listing its emoji.

    ## Bad
    ```json
    {"tools": [{"name": "deploy", "title": "🚀 Deploy", "description": "Deploy the app to production ✨", "inputSchema": {
      "type": "object", "properties": {"env": {"type": "string", "description": "Target environment ⚠️ prod is live"}}
    }}]}
    ```

    ```json
    {"prompts": [{"name": "code_review", "title": "🔍 Code review", "description": "Review a diff for bugs."}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "title": "Get Weather", "description": "Get the temperature in °C or °F for a city → returns a number.", "inputSchema": {
      "type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. Zürich or 東京"}}
    }}]}
    ```

    ```json
    {"resources": [{"uri": "file:///data/zurich.csv", "name": "Zürich.csv", "title": "Zürich temperatures (°C)",
                    "mimeType": "text/csv"}]}
    ```

    ```json
    {"tools": [{"name": "create_reaction", "description": "Add an emoji reaction to a chat message.", "inputSchema": {
      "type": "object", "properties": {"emoji": {"type": "string", "description": "The emoji character to react with (e.g. 👍)."}}
    }}]}
    ```
    """

    code = "MCP220"
    name = "emoji-in-text"
    checklist = (3,)
    category = "description"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        source = doc.document.text  # a clean source has nothing to find: skip the walk (not without one)
        if not source or may_contain_emoji(source):
            yield from super().check(doc, ctx)
            for text_ptr, what, text in doc.listing_texts():  # prompts, resources, templates
                if not text.isascii():
                    yield from _found(text_ptr, what, text)

    def candidates(self, doc, ctx):
        return text_census(doc).non_ascii_tools  # emoji are never ASCII

    def check_tool(self, ptr, tool, ctx):
        for text_ptr, what, text in non_ascii_texts(ctx.doc, ptr, tool):  # emoji are never ASCII
            yield from _found(text_ptr, what, text)


@lru_cache(maxsize=4096)  # tools repeat their texts (descriptions, parameter descriptions)
def _listed(text: str, named: bool = False) -> tuple[str, int]:
    """The text's emoji, each once, separated by spaces ("" when it has none), and where the
    first is; an emoji quoted alone ("any emoji character like '📝' or '🚀'") is an example of
    a value, not decoration, and is left out. So is, in a text about emoji (``named``: its label
    says so, or the text does before the emoji), one given as an example after "e.g.", "for
    example" or "such as", and the ones listed after it ("(e.g. 👍)", "such as 🎉, 👀 or 🚀")."""
    found, first, at, example_end = [], -1, 0, -1
    about = 0 if named else _about_emoji_at(text)  # where the text first says "emoji" (-1: never)
    for emoji in find_emoji(text):
        start = text.find(emoji, at)  # (find_emoji's clusters are substrings of the text, in order)
        end = start + len(emoji)
        if start >= 0 and 0 <= about < start and _example(text, start, example_end):
            example_end = end
        elif start < 0 or not (0 < start and end < len(text) and _QUOTES.get(text[start - 1]) == text[end]):
            found.append(emoji)
            first = start if first < 0 else first
        at = max(at, end)
    return " ".join(dict.fromkeys(found)), first


_QUOTES = {"'": "'", '"': '"', "`": "`", "\u2018": "\u2019", "\u201c": "\u201d", "\u00ab": "\u00bb"}
# What makes an emoji an example value: a marker right before it, or another example and a separator.
_EXAMPLE_MARKER = regex(r"(?:\be\.\s?g\.?|\beg\.|\bfor\s+(?:example|instance)|\bsuch\s+as)[:,]?\s*$", re.I)
_EXAMPLE_SEPARATOR = regex(r"\s*(?:,|/|,?\s*\b(?:or|and)\b)\s*", re.I)
_ABOUT_EMOJI = regex(r"emoji|emoticon|reaction", re.I)


def _about_emoji_at(text: str) -> int:
    found = _ABOUT_EMOJI.search(text)
    return found.start() if found else -1


def _example(text: str, start: int, example_end: int) -> bool:
    """Whether the emoji at ``start`` is given as an example of a value (after "e.g." or another example)."""
    if example_end >= 0 and _EXAMPLE_SEPARATOR.fullmatch(text, example_end, start):
        return True
    return _EXAMPLE_MARKER.search(text, max(0, start - 20), start) is not None


def _found(text_ptr, what, text):
    listed, at = _listed(text, _ABOUT_EMOJI.search(what) is not None)
    if listed:
        label = _FIELDS.get(what, what[0].upper() + what[1:])
        first = listed.split(" ", 1)[0]
        yield Violation(text_ptr, f"{label} contains emoji {listed}; remove them or say it in words",
                        within=(at, at + len(first)) if at >= 0 else None)
