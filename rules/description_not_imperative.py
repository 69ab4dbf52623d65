from functools import lru_cache

from mcplint.findings import Severity
from mcplint.lexicon import NON_VERB_OPENERS, opening_problem
from mcplint.rule import Option, RuleOptions, ToolRule, Violation

_opening_problem = lru_cache(maxsize=4096)(opening_problem)  # generated tool lists repeat descriptions


def _like(word: str, example: str) -> str:
    """``word`` with the capitalisation of ``example``'s first letter."""
    return word.capitalize() if example[:1].isupper() else word


def _adverb(opening: str) -> bool:
    """An opening of one word that is an adverb ("Only"): adding it to extra-verbs would be wrong."""
    return " " not in opening and opening.lower().endswith("ly") and len(opening) > 3


class DescriptionNotImperative(ToolRule):
    """A tool description does not start with an action verb.

    ## Why
    A description that opens with the action ("Get the forecast for a city", or
    "Gets the forecast for a city") tells a model at once what calling the tool
    does. Gerunds ("Getting"), noun phrases ("Weather alerts for a state") and
    preambles about the tool itself ("This tool …", "A tool that …", "Helps you …",
    "Allows you to …", "Used to …") bury the action.

    The first word is looked up in a curated lexicon of several hundred English verbs,
    in the imperative or the third person ("Fetch", "Fetches"); leading markup,
    quotes, pictographs, list numbers, `[TAGS]`, labels such as `DEPRECATED:`, section
    headings such as `Purpose:` or `Summary` on a line of their own ("🎯 Purpose:
    1. Retrieves …"), a vendor or feature label of up to
    four words before `:`, `|` or a dash ("Notion | Retrieve a user", "Goal Seek: change
    …") and adverbs ("Recursively search …") are skipped, and a description that opens
    with a template placeholder (`{verb} the record`) is not judged. A verb missing
    from the lexicon can be added with the `extra-verbs` option; after an adverb
    ("Manually frobnicate …") the message names the word after it, the one to add.

    The lexicon is English, so a description in another language is not judged. A
    description counts as English when most of its letters are Latin (Chinese,
    Japanese, Korean, Thai or Cyrillic text is not), at least a quarter of its first
    40 words (numbers left out) are English function words ("the", "for", "with"),
    nouns common in tool descriptions ("file", "name") or forms of lexicon verbs, and
    these outnumber two to one the signs of another language: the commonest function
    words of German, French, Spanish, Italian, Portuguese and Dutch ("die", "une",
    "para") and words with accented letters.

    Only tool descriptions are checked: parameter descriptions are naturally noun
    phrases ("Path of the file"). Missing descriptions are reported by MCP210.

    ## Bad
    ```json
    {"tools": [
      {"name": "get_forecast", "description": "Getting the weather forecast for a city.", "inputSchema": {"type": "object"}},
      {"name": "search_docs", "description": "This tool searches the documentation.", "inputSchema": {"type": "object"}},
      {"name": "weather", "description": "Weather alerts for a US state.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    ```json
    {"tools": [
      {"name": "get_forecast", "description": "Get the weather forecast for a city.", "inputSchema": {"type": "object"}},
      {"name": "fetch_page", "description": "Fetches a web page and returns it as Markdown.", "inputSchema": {"type": "object"}},
      {"name": "wetter", "description": "Ruft die Wettervorhersage für eine Stadt ab.", "inputSchema": {"type": "object"}},
      {"name": "search_docs", "description": "Recursively search the documentation for a phrase.", "inputSchema": {"type": "object"}},
      {"name": "start_auth", "description": "Manually initiate the OAuth flow and return the URL to open.", "inputSchema": {"type": "object"}},
      {"name": "peek_collection", "description": "Peek at the first documents in a collection.", "inputSchema": {"type": "object"}},
      {"name": "read_file", "description": "DEPRECATED: Use read_text_file instead.", "inputSchema": {"type": "object"}},
      {"name": "get_user", "description": "Notion | Retrieve a user by ID.", "inputSchema": {"type": "object"}}
    ]}
    ```
    """

    code = "MCP211"
    name = "description-not-imperative"
    checklist = (2,)
    category = "description"
    severity = Severity.WARNING

    class Options(RuleOptions):
        extra_verbs: list[str] = Option([], "More verbs (base form) a description may start with.")

    def candidates(self, doc, ctx):
        extra = frozenset(v.strip().lower() for v in ctx.options.extra_verbs)  # each distinct description once
        return doc.census().with_text(
            "description", lambda text: bool(text.strip()) and _opening_problem(text, extra) is not None)

    def check_tool(self, ptr, tool, ctx):
        text = tool.get("description")
        if not isinstance(text, str) or not text.strip():
            return
        extra = frozenset(v.strip().lower() for v in ctx.options.extra_verbs)
        problem = _opening_problem(text, extra)
        if problem is None:
            return
        kind, opening, verb = problem
        if kind == "preamble":
            example = f", e.g. '{verb.capitalize()} …'" if verb else ""
            message = (f"Description opens with '{opening}', which talks about the tool instead of "
                       f"saying what it does; start with an action verb{example}")
        elif kind == "gerund":
            message = f"Description starts with '{opening}'; use the imperative '{_like(verb, opening)}'"
        else:
            hint = ""
            word = opening.rsplit(" ", 1)[-1]  # after an adverb ("Manually initiate"), the word to add
            if word.lower() not in NON_VERB_OPENERS and word.isalpha() and not _adverb(opening):
                hint = f", or add '{word.lower()}' to extra-verbs if it is a verb"
            message = (f"Description starts with '{opening}', not an action verb; start with what "
                       f"the tool does, e.g. 'Get …' or 'Create …'{hint}")
        yield Violation(ptr / "description", message)
