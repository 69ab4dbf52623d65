import re

from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import Option, Rule, RuleOptions, Violation
from mcplint.schema_refs import value_at
from mcplint.schemas import name_tokens, tool_schemas_any_dialect, types_of

_URL = ("url", "a URL", 'add "format": "uri"')
_PATH = ("path", "a file-system path", "add a 'pattern' or 'maxLength'")
# last word of the parameter name -> (category, what it looks like, how to constrain it)
_HINTS = {
    "url": _URL, "uri": _URL, "href": _URL, "link": _URL, "website": _URL, "homepage": _URL,
    "email": ("email", "an email address", 'add "format": "email"'),
    "path": _PATH, "filepath": _PATH, "file": _PATH, "dir": _PATH, "dirpath": _PATH,
    "directory": _PATH, "folder": _PATH,
    "date": ("date", "a date", 'add "format": "date"'),
    "time": ("date", "a time", 'add "format": "date-time" (or "time" for a time of day) or a \'pattern\''),
    "datetime": ("date", "a date and time", 'add "format": "date-time"'),
    # epoch seconds and Slack's "1700000000.123456" are timestamps too: a pattern first
    "timestamp": ("date", "a timestamp", 'add a \'pattern\' (or "format": "date-time" for ISO 8601 times)'),
}
_CONSTRAINTS = ("format", "pattern", "enum", "const", "maxLength", "contentMediaType", "contentEncoding", "$ref")
# A description that spells out the accepted form documents it well enough for this hint.
_FORMAT_DOCUMENTED = regex(r"\bformat\b|ISO[ -]?8601|RFC[ -]?3339|YYYY|HH:MM", re.I)
# A date or time parameter whose description shows an example value ("e.g. 2024-01-01", "14:30")
# documents its form; one that takes relative values too ("1 week", "2d", "3 days ago": basic-memory's
# after_date) would be broken by "format": "date".
_DATE_SHOWN = regex(
    r"\b\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}\b|\b\d+\s*(?:[dhwmy]|days?|weeks?|months?|years?|hours?|minutes?)\b"
    r"|\b(?:ago|yesterday|today|relative)\b", re.I)
# A "path" into a document, an API or a search, not the file system: `jsonPath` described as "JSONPath
# expression ('$.panels[0].title')", `search_folder` ("Search folders by path using partial matching"):
# grafana. Told by an earlier word of the name, or by the description.
# So are the identifier paths of an API's groups, namespaces and projects (gitlab's `my-group/sub/project`:
# "The path of the group", "Namespace path to verify", "Project path/slug", "full project path", "Project ID
# or URL-encoded path"); a project's path on disk ("path to the project directory") stays a file path.
# So are Azure DevOps' area and iteration paths ("Project\\Team\\Sprint 1") and a wiki page's path.
_NOT_FILES_BY_NAME = {"json", "jmes", "property", "field", "dot", "url", "api", "route", "endpoint",
                      "search", "query", "filter", "match", "find", "group", "namespace", "area", "iteration"}
_NOT_FILES_DESCRIBED = regex(
    r"\b(?:JSON\s?Path|JSON\s?Pointer|XPath|JMESPath|jq|dot(?:ted)?[- ](?:notation|path)|(?:property|field|object|"
    r"key|URL|API|request|route|endpoint)\s+path|partial match(?:ing|es)?|wiki\s+page|page\s+path"
    r"|(?:sub)?group\s+path|namespace\s+path|full\s+(?:project|group|namespace)\s+path"
    r"|path\s+of\s+the\s+(?:sub)?(?:group|namespace)|URL[- ]encoded\s+path|slug"
    # patterns that select URLs by their path (tavily's select_paths: "Regex patterns to select
    # only URLs with specific path patterns (e.g., /docs/.*)")
    r"|(?:regex|regular\s+expression|glob)\s+patterns?\b[^.\n]{0,60}\bURLs?)\b", re.I)
# A parameter called `file` may carry the file itself rather than its path.
_FILE_CONTENT = regex(r"\b(?:contents?|base64|bytes|data|text)\b", re.I)


class FormatHintUnconstrained(Rule):
    """A string parameter whose name implies a format (URL, email, path, date) has no constraint.

    ## Why
    A parameter named `callback_url`, `email`, `file_path` or `startDate`
    expects a value of a particular form, but a bare `{"type": "string"}`
    accepts any text: the server sees malformed input first, and the model
    gets no hint of the expected form. A `format`, `pattern`, `enum`, `const`
    or `maxLength` validates it at the schema level; a description that names
    the form (e.g. "ISO 8601 format"), or for a date or time shows an example
    value or relative values ("2024-01-01", "1 week"), is accepted too. Names are split into
    words (`file_path` -> file, path; `startDate` -> start, date) and only the
    last word, or `email` in `email_address`, counts, so `update`, `pathway`,
    `link_text` or `time_zone` are not matched. A path into a document or an API rather than the file
    system (`json_path`, `url_path`, `search_folder`, a description naming JSONPath, JSON Pointer or
    XPath, an "API endpoint path"), the identifier path of an API's group, namespace or project
    (`group_path`, "The path of the group", "Project path/slug", "full project path", "URL-encoded path"),
    Azure DevOps' `areaPath` and `iterationPath` and a wiki page's path are not taken for file-system
    paths. A timestamp may be epoch seconds, so for one a `pattern` is advised first.

    ## Bad
    ```json
    {"tools": [{"name": "subscribe", "inputSchema": {"type": "object", "properties": {
      "callback_url": {"type": "string", "description": "Where to send events."}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "subscribe", "inputSchema": {"type": "object", "properties": {
      "callback_url": {"type": "string", "format": "uri", "description": "Where to send events."},
      "since": {"type": "string", "description": "Start date in ISO 8601 format."},
      "link_text": {"type": "string", "description": "Text of the link."}}}},
     {"name": "create_group", "inputSchema": {"type": "object", "properties": {
      "path": {"type": "string", "description": "The path of the group, e.g. my-group/sub-group."}}}}]}
    ```
    """

    code = "MCP331"
    name = "format-hint-unconstrained"
    checklist = (16,)
    category = "schema"
    severity = Severity.INFO

    class Options(RuleOptions):
        categories: list[str] = Option(
            ["url", "email", "path", "date"], "Which name hints to check: url, email, path, date (dates and times).",
        )

    def check(self, doc, ctx):
        for entry in tool_schemas_any_dialect(doc):  # the version plays no part here
            if entry.field != "inputSchema":
                continue
            for path, name in entry.facts.hinted:
                prop = value_at(entry.schema, path)
                if isinstance(prop, dict) and "array" in types_of(prop) and "string" not in types_of(prop) \
                        and isinstance(prop.get("items"), dict):
                    yield from _items(entry, path, name, prop["items"], ctx.options.categories)
                    continue
                hint = _hint(name)
                if hint is None or hint[0] not in ctx.options.categories or not isinstance(prop, dict) \
                        or not _unconstrained_string(prop):
                    continue
                description = prop.get("description") if isinstance(prop.get("description"), str) else ""
                if _FORMAT_DOCUMENTED.search(description) or (
                        name_tokens(name)[-1] == "file" and _FILE_CONTENT.search(description)) or (
                        hint[0] == "date" and _DATE_SHOWN.search(description)) or (
                        hint[0] == "path" and _not_a_file_path(name, description)):
                    continue
                _, what, fix = hint
                yield Violation(entry.at(path), f"String parameter '{name}' looks like {what} but accepts "
                                f"any text; {fix} to validate it")


def _items(entry, path, name: str, items: dict, categories):
    """An array of such strings, named in the plural (`urls`, `file_paths`: exa, server-filesystem)."""
    last = name_tokens(name)[-1] if name_tokens(name) else ""
    singular = "directory" if last == "directories" else last[:-1] if last.endswith("s") else ""
    hint = _HINTS.get(singular) if singular not in ("", "time") else None
    if hint is None or hint[0] not in categories or not _unconstrained_string(items):
        return
    described = " ".join(d for d in (items.get("description"), value_at(entry.schema, path).get("description"))
                         if isinstance(d, str))
    if _FORMAT_DOCUMENTED.search(described) or (singular == "file" and _FILE_CONTENT.search(described)) or (
            hint[0] == "path" and _not_a_file_path(name, described)):
        return
    _, what, fix = hint
    yield Violation(entry.at((*path, "items")), f"Array parameter '{name}' holds strings that look like {what} "
                    f"but accept any text; {fix} to its items to validate them")


def _not_a_file_path(name: str, description: str) -> bool:
    return not _NOT_FILES_BY_NAME.isdisjoint(name_tokens(name)[:-1]) or bool(_NOT_FILES_DESCRIBED.search(description))


def _hint(name: str):
    tokens = name_tokens(name)
    if not tokens:
        return None
    if tokens[-1] == "address" and len(tokens) > 1 and tokens[-2] == "email":
        return _HINTS["email"]
    return _HINTS.get(tokens[-1])


def _unconstrained_string(prop: dict) -> bool:
    branches = [prop] if "string" in types_of(prop) else []
    for key in ("anyOf", "oneOf"):
        if isinstance(prop.get(key), list):
            branches += [b for b in prop[key] if isinstance(b, dict) and "string" in types_of(b)]
    if not branches:
        return False
    return not any(key in schema for schema in (prop, *branches) for key in _CONSTRAINTS)
