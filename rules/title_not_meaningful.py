
from mcplint import versions
from mcplint.emoji import strip_emoji
from mcplint.findings import Severity
from mcplint.identifiers import split_words
from mcplint.regex_cache import regex
from mcplint.rule import ToolRule, Violation

# An identifier rather than a display name: snake_case, lowerCamelCase, kebab-case.
_IDENTIFIER = regex(r"\S*_\S*|[a-z]{2,}(?:[A-Z][a-z0-9]+)+|[a-z0-9]+(?:-[a-z0-9]+)+")


class TitleNotMeaningful(ToolRule):
    """A tool title is empty, repeats the tool name or its description, or is not a readable display name.

    ## Why
    `title` (from 2025-06-18) and `annotations.title` (from 2025-03-26) are what
    clients show people instead of the name. A title that is empty, is the name
    again (`get_user`, `GET_USER`), looks like an identifier (`getUser`,
    `fetch-data`) or has no letters at all adds nothing over the name, and one that
    is the whole description again (over 60 characters of it) is no display name.
    Write it as a person would read it: "Get User" for `get_user` is fine. A title
    written the same in both places is reported once, on `title`.

    Emoji in titles are reported by MCP220.

    ## Bad
    ```json protocol=2025-06-18
    {"tools": [
      {"name": "get_user", "title": "get_user", "description": "Get a user.", "inputSchema": {"type": "object"}},
      {"name": "list_repos", "title": "listRepos", "description": "List repositories.", "inputSchema": {"type": "object"}},
      {"name": "search", "annotations": {"title": " "}, "description": "Search issues.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    ```json protocol=2025-06-18
    {"tools": [
      {"name": "get_user", "title": "Get User", "description": "Get a user.", "inputSchema": {"type": "object"}},
      {"name": "divide", "title": "Divide", "description": "Divide two numbers.", "inputSchema": {"type": "object"}},
      {"name": "list_repos", "annotations": {"title": "List GitHub repositories"}, "description": "List repositories.", "inputSchema": {"type": "object"}}
    ]}
    ```
    """

    code = "MCP230"
    name = "title-not-meaningful"
    checklist = (7,)
    category = "naming"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        census = doc.census()  # each distinct title judged once, against every name at once
        names = census.strings("name")
        titles = census.strings("title").union(t for t in census.annotation_values("title") if isinstance(t, str))
        descriptions = census.strings("description")
        flagged = {title for title in titles if _may_object(title, names) or _long(title) and title in descriptions}
        if not flagged:
            return []
        return [(ptr, tool) for ptr, tool in census.tools if _holds(tool, flagged)]

    def check_tool(self, ptr, tool, ctx):
        name = tool.get("name") if isinstance(tool.get("name"), str) else None
        fields = [("annotations.title", tool.get("annotations"))]
        if ctx.version >= versions.V2025_06_18:
            fields.insert(0, ("title", tool))
        titles = [(label, holder.get("title") if isinstance(holder, dict) else None) for label, holder in fields]
        if len(titles) == 2 and isinstance(titles[0][1], str) and titles[0][1] == titles[1][1]:
            titles = [("title (and annotations.title)", titles[0][1])]  # the same title twice: one finding
        for label, title in titles:
            if isinstance(title, str):
                problem = _problem(title, name) or _repeats_description(title, tool.get("description"), name)
                if problem:
                    title_ptr = ptr / "annotations" / "title" if label == "annotations.title" else ptr / "title"
                    yield Violation(title_ptr, f"Tool {label} {problem}")


def _may_object(title: str, names: set[str]) -> bool:
    """False only for a title ``_problem`` passes whatever the tool's name (other than one of
    ``names``): ASCII text with a letter and inner whitespace, which no identifier has."""
    if not title.isascii():
        return True
    text = title.strip()
    return len(text.split(None, 1)) < 2 or text.lower() == text.upper() or text in names


# A title as long as a sentence that is the description word for word is no display name (svelte's
# get_documentation: 240 characters in both); a short one ("Divide two numbers.") may be both.
MAX_TITLE_AS_DESCRIPTION = 60


def _long(title: str) -> bool:
    return len(title.strip()) > MAX_TITLE_AS_DESCRIPTION


def _repeats_description(title: str, description, name: str | None) -> str | None:
    if not (_long(title) and isinstance(description, str) and title.strip() == description.strip()):
        return None
    example = f" such as '{_words(name)}'" if name else ""
    return (f"repeats the description ({len(title.strip()):,} characters); give a short display "
            f"name{example}")


def _holds(tool: dict, flagged: set[str]) -> bool:
    """Whether the tool's title or annotations.title is one of ``flagged``."""
    title = tool.get("title")
    if isinstance(title, str) and title in flagged:
        return True
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and isinstance(other := annotations.get("title"), str) and other in flagged


def _words(identifier: str) -> str:
    return " ".join(w.capitalize() for w in split_words(identifier)) or identifier


def _problem(title: str, name: str | None) -> str | None:
    if not title.strip():
        return "is empty; remove it or give a human-readable display name"
    text = strip_emoji(title).strip()
    if not text:
        return None  # only emoji: MCP220's finding
    identifier = _IDENTIFIER.fullmatch(text) is not None
    if name is not None and (text == name or (identifier and text.casefold() == name.casefold())):
        return f"'{title}' just repeats the tool name; use a display name such as '{_words(name)}'"
    if identifier:
        return f"'{title}' looks like an identifier, not a display name; write it as words, e.g. '{_words(text)}'"
    if not any(ch.isalpha() for ch in text):
        return f"'{title}' has no letters; give a human-readable display name"
    return None
