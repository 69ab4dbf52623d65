import re
from functools import lru_cache

from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import Option, Rule, RuleOptions, Violation
from mcplint.schema_refs import local_target, value_at
from mcplint.schemas import input_schemas, violations_once_per_schema


class ParameterDescriptionMissing(Rule):
    """A parameter has no description, or an empty one.

    ## Why
    The parameter description is the only place to tell the model what a value
    means, which unit or format it uses and where it comes from. A `title` is a
    short display label (SDKs often derive it from the name, e.g. "Repo Path" for
    `repo_path`), so by default it does not count. A parameter that is a `$ref`
    (alone or as the single member of `allOf`) may take its description from the
    referenced definition, and one whose `anyOf` or `oneOf` branch carries a
    description (directly or through a `$ref`) is described: the model reads the
    parameter's whole schema. Parameters are the `inputSchema` properties, including
    nested ones under object parameters and array `items`. A parameter the tool's
    description documents (a docstring's `Args:` line, `:param path:`, `@param path`,
    as SDKs that build descriptions from docstrings leave it, a Markdown entry such as
    `- **entity_id**: ...`, or a clause of its prose that names it exactly, as in "optional
    max_comments to limit results" or "the `before` and `after` parameters accept ...": by a
    name such as `max_comments` or `pageToken` that no English word is, or by any name in
    backticks or quotes, and followed by what it is for), or a nested parameter
    the enclosing parameter's description names ("lang and tz set the language"), or else the tool's
    by a name no English word is (`EmailAddresses`), is
    reported as a hint (info): the model reads it there, but clients that list
    parameters show only the parameter's own description. An object that admits only
    `{}` (no properties, `additionalProperties: false`) holds nothing to describe.

    ## Bad
    ```json
    {"tools": [{"name": "git_status", "inputSchema": {"type": "object", "properties": {
      "repo_path": {"type": "string", "title": "Repo Path"}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "git_status", "inputSchema": {"type": "object", "properties": {
      "repo_path": {"type": "string", "description": "Absolute path of the Git repository."},
      "range": {"$ref": "#/$defs/Range"}},
      "$defs": {"Range": {"type": "string", "description": "Revision range, e.g. main..HEAD."}}}}]}
    ```
    """

    code = "MCP311"
    name = "parameter-description-missing"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING

    class Options(RuleOptions):
        accept_title: bool = Option(False, "Count a non-empty `title` as a description.")

    def check(self, doc, ctx):
        accept_title = ctx.options.accept_title
        for violation in violations_once_per_schema(input_schemas(doc), lambda entry: self._missing(entry, accept_title)):
            yield _documented_elsewhere(violation, doc) or violation

    def _missing(self, entry, accept_title: bool) -> list[tuple[tuple, str]]:
        """(path, message) of each parameter of the schema without a description."""
        found = []
        for path, name in entry.facts.undescribed:  # the version plays no part here
            prop = value_at(entry.schema, path)
            if self._described(prop, entry.schema, accept_title) or _only_empty(prop):
                continue
            if isinstance(prop.get("description"), str):
                found.append(((*path, "description"), f"Parameter '{name}' has an empty description; say "
                              "what the value means and what format it takes"))
                continue
            title = prop.get("title")
            label = f" (its title {title!r} is only a display label)" if isinstance(title, str) and title else ""
            found.append((path, f"Parameter '{name}' has no description{label}; add one saying what the "
                          "value means and what format it takes"))
        return found

    @staticmethod
    def _described(prop: dict, root, accept_title: bool) -> bool:
        fields = ("description", "title") if accept_title else ("description",)
        candidates = [prop]
        all_of = prop.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
            candidates.append(all_of[0])
        # A description in any anyOf/oneOf branch is in the parameter's own schema, where clients
        # read it (notion: {anyOf: [{type: object, description: ...}, {type: string}]}). One branch
        # is enough: the model sees the whole schema, not only the branch a value will match.
        for key in ("anyOf", "oneOf"):
            branches = prop.get(key)
            if isinstance(branches, list):
                candidates.extend(b for b in branches[:64] if isinstance(b, dict))
        for schema in list(candidates):
            target = local_target(root, schema.get("$ref"))
            if isinstance(target, dict):
                candidates.append(target)
        return any(isinstance(c.get(f), str) and c[f].strip() for c in candidates for f in fields)


# A parameter documented in its tool's description, as SDKs that build the description from
# a docstring leave it: NumPy ("path : str" over an indented line; tried first, its type is
# not the description), Google style ("Args:" then "path: ..." or "path (str): ..."), Markdown
# lists ("- `path`: ..."), Sphinx (":param path: ..."), JSDoc ("@param path ...").
_NAME = r"(?P<name>[A-Za-z_$][\w$.-]{0,80})"
_DOC_LINES = tuple(regex(pattern.replace("{name}", _NAME)) for pattern in (
    r"(?m)^[ \t]*{name}[ \t]+:[ \t]*[^\n]*\n[ \t]+(?P<text>\S[^\n]*)",
    # "- `path`: ...", "- **entity_id**: ...", "- **entity_id:** ..." (ha-mcp's Markdown guidelines)
    r"(?m)^[ \t]*(?:[-*][ \t]+)?(?:\*\*|__)?`?{name}`?(?::(?:\*\*|__)|(?:\*\*|__)?[ \t]*(?:\([^)\n]*\))?[ \t]*:)"
    r"[ \t]*(?P<text>\S[^\n]*)",
    r":param[ \t]+(?:[\w\[\], |.]+[ \t]+)?{name}[ \t]*:[ \t]*(?P<text>\S[^\n]*)",
    r"@param[ \t]+(?:\{[^}\n]*\}[ \t]+)?\[?{name}\]?[ \t]+(?:-[ \t]+)?(?P<text>\S[^\n]*)",
))
# Several names sharing one entry ("- frames / frame_count: explicit frames, or how many", "x, y: ...").
_SHARED_LINE = regex(
    r"(?m)^[ \t]*(?:[-*][ \t]+)?(?P<names>`?[A-Za-z_$][\w$.-]{0,80}`?(?:[ \t]*(?:/|,|\bor\b|\band\b)[ \t]*"
    r"`?[A-Za-z_$][\w$.-]{0,80}`?){1,5})[ \t]*:[ \t]*(?P<text>\S[^\n]*)")
_SHARED_NAME = regex(r"[A-Za-z_$][\w$.-]{0,80}")
_MAX_DOCUMENTED = 100_000  # characters of a description read for them (MCP213 reports a longer one)


@lru_cache(maxsize=256)  # once per description, whatever the number of its parameters
def _documented(description: str) -> dict[str, str]:
    """Parameter name -> the text the description gives it."""
    found: dict[str, str] = {}
    for pattern in _DOC_LINES:
        for match in pattern.finditer(description[:_MAX_DOCUMENTED]):
            found.setdefault(match.group("name"), match.group("text").strip())
    for match in _SHARED_LINE.finditer(description[:_MAX_DOCUMENTED]):
        for name in _SHARED_NAME.findall(match.group("names")):
            if name not in ("or", "and"):
                found.setdefault(name, match.group("text").strip())
    return found


def _documented_elsewhere(violation, doc):
    """The finding for a top-level parameter its tool's description documents (an "Args:"
    line, or a clause of prose that explains it by name): a hint to move that text into the
    parameter's own description, where clients that show parameters read it, at info; None for
    any other finding."""
    pointer = violation.pointer
    if len(pointer) < 3 or pointer[-2] != "properties":
        return None
    if "inputSchema" not in pointer[:-2]:
        return None
    nested = pointer[-3] != "inputSchema"  # a nested parameter: its parent's description may name it
    if nested and (found := _documented_by_parent(violation, doc)) is not None:
        return found
    try:  # else the tool's description (launchdarkly's request.spec: "Use the `spec` parameter with ...")
        tool = value_at(doc.document.data, tuple(pointer[:len(pointer) - 1 - pointer[::-1].index("inputSchema")]))
    except (KeyError, IndexError, TypeError):
        return None
    description = tool.get("description") if isinstance(tool, dict) else None
    name = pointer[-1]
    if not isinstance(description, str) or not isinstance(name, str):
        return None
    text = _documented(description).get(name)
    if text:
        shown = f"{name}: {text if len(text) <= 60 else text[:57] + '...'}"
    else:
        shown = _explained(description[:_MAX_DOCUMENTED], name)
        if not shown and nested and _names_exactly(description[:_MAX_DOCUMENTED], name):
            # a nested parameter the tool's description names, as its parent's would (ms365's
            # "Body: { EmailAddresses: [...], MailTipsOptions: '...' }")
            return Violation(pointer, f"Parameter '{name}' is described only in the tool's description; put "
                                      "that in the parameter's own description, where clients that show parameters "
                                      "read it", severity=Severity.INFO)
        if not shown:
            return None
    return Violation(pointer, f"Parameter '{name}' is described only in the tool's description "
                              f"('{shown}'); put that in the parameter's own description, "
                              "where clients that show parameters read it", severity=Severity.INFO)


# A parameter the description explains in running prose ("optional max_comments to limit results":
# google-workspace), named exactly: by a name no English word is (`max_comments`, `pageToken`), or
# by any name in code or quotes (`limit`), and followed by what it is for ("to limit results", "for
# paging", "sets the language", "is the token of the next page"). A name only mentioned ("Requires
# comment_id and comment_content", "parent_id is optional", a signature "spreadsheet_id: str") is not.
_IDENTIFIER = regex(r"[A-Za-z$][\w$]*(?:_[\w$]+|[a-z][A-Z])[\w$]*|_[\w$]+")
_EXPLAINS_AFTER = (
    r"[ \t]+(?:(?:to|for)[ \t]+(?!be\b)[a-z]+(?![\w$])"
    r"|(?:sets|limits|caps|controls|specifies|selects|filters|chooses|restricts|determines|defines|overrides"
    r"|enables|disables|toggles)\b|(?:is|are)[ \t]+(?:the|a|an)[ \t]+[a-z]+(?![\w$]))")
# ... or by what comes before it, a bound: "Waits up to wait_seconds (at most 45)".
_EXPLAINS_BEFORE = r"(?:\b(?:up[ \t]+to|at[ \t]+most|at[ \t]+least|within|every)[ \t]+)"
_EXPLAINED_MENTION = regex(
    r"(?:(?<![\w$.-])(?P<bare>[A-Za-z_$][\w$]{0,80})(?![\w$-])|(?P<q>[`'\"])(?P<quoted>[A-Za-z_$][\w$.-]{0,80})(?P=q))"
    rf"(?={_EXPLAINS_AFTER})"
    rf"|{_EXPLAINS_BEFORE}(?:(?P<bare2>[A-Za-z_$][\w$]{{0,80}})(?![\w$-])|`(?P<quoted2>[A-Za-z_$][\w$.-]{{0,80}})`)")
_CLAUSE_END = regex(r"[.!?](?=\s|$)|[;()\[\]\n]")


# ... or names in code or quotes called parameters, followed by what they do: "Use the `spec` parameter
# with format ...", "The `before` and `after` parameters accept ..." (launchdarkly).
_QUOTED_NAME = r"""[`'"][A-Za-z_$][\w$.-]{0,80}[`'"]"""
_PARAMETERS_NAMED = regex(
    rf"(?P<names>(?:{_QUOTED_NAME}(?:[ \t]*,[ \t]*(?:(?:and|or)[ \t]+)?|[ \t]+(?:and|or)[ \t]+)){{0,5}}{_QUOTED_NAME})"
    r"[ \t]+(?:parameters?|params?|arguments?|args?|fields?|options?|inputs?)[ \t]+(?=[a-z])")
_QUOTED_NAMES = regex(r"""[`'"]([A-Za-z_$][\w$.-]{0,80})[`'"]""")


@lru_cache(maxsize=256)  # once per description, whatever the number of its parameters
def _explained_mentions(description: str) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """Where the description first names each word followed by what it is for: bare, and in code or quotes."""
    bare: dict[str, tuple[int, int]] = {}
    quoted: dict[str, tuple[int, int]] = {}
    for match in _EXPLAINED_MENTION.finditer(description):
        if match["bare"] or match["bare2"]:
            bare.setdefault(match["bare"] or match["bare2"], match.span())
        else:
            quoted.setdefault(match["quoted"] or match["quoted2"], match.span())
    for match in _PARAMETERS_NAMED.finditer(description):
        for name in _QUOTED_NAMES.findall(match["names"]):
            quoted.setdefault(name, match.span())
    return bare, quoted


def _explained(description: str, name: str) -> str | None:
    """The clause of ``description`` that explains the parameter ``name`` (shortened to about 60
    characters around it), or None when none does."""
    bare, quoted = _explained_mentions(description)
    span = quoted.get(name) or (bare.get(name) if _IDENTIFIER.fullmatch(name) else None)
    if span is None:
        return None
    start, end = span
    opened = max((m.end() for m in _CLAUSE_END.finditer(description, max(0, start - 300), start)), default=0)
    closing = _CLAUSE_END.search(description, end)
    text = " ".join(description[opened:closing.start() if closing else len(description)].split())
    return _shortened(text, text.find(description[start:end]))


def _shortened(text: str, at: int, limit: int = 60) -> str:
    """``text`` cut at whole words to about ``limit`` characters around the word at ``at``."""
    if len(text) <= limit:
        return text
    begin = max(0, min(at - 20, len(text) - limit + 3))
    if begin:
        space = text.find(" ", begin - 1, at)
        begin = space + 1 if space >= 0 else at
    piece = text[begin:begin + limit - 3]
    if begin + limit - 3 < len(text):
        cut = piece.rfind(" ")
        piece = (piece[:cut] if cut > at - begin else piece) + "..."
    return ("..." if begin else "") + piece


_BRANCH_KEYS = ("anyOf", "oneOf", "allOf")


def _documented_by_parent(violation, doc):
    """The finding for a nested parameter (a property of an object parameter) that the enclosing
    parameter's description names ("lang and tz set the language and timezone"): the same hint,
    at info; None when the parent does not name it."""
    pointer = violation.pointer
    name = pointer[-1]
    parent = list(pointer[:-2])  # the object schema holding `properties`
    while len(parent) >= 2 and (parent[-2] in _BRANCH_KEYS or parent[-1] in ("items", "additionalProperties")):
        parent = parent[:-2] if parent[-2] in _BRANCH_KEYS else parent[:-1]
    if len(parent) < 2 or parent[-2] != "properties" or not isinstance(name, str):
        return None
    try:
        schema = value_at(doc.document.data, tuple(parent))
    except (KeyError, IndexError, TypeError):
        return None
    description = schema.get("description") if isinstance(schema, dict) else None
    if not isinstance(description, str) or not _names(description[:_MAX_DOCUMENTED], name):
        return None
    return Violation(pointer, f"Parameter '{name}' is described only in the description of '{parent[-1]}'; "
                              "put that in the parameter's own description, where clients that show parameters "
                              "read it", severity=Severity.INFO)


def _names_exactly(description: str, name: str) -> bool:
    """Whether a tool's description names the parameter unmistakably: by a name no English word is
    (`EmailAddresses`, `max_results`). A plain word such as "type", "name" or "quality" may be any
    key of an example in a tool's description, or only prose."""
    return _IDENTIFIER.fullmatch(name) is not None and _names(description, name)


@lru_cache(maxsize=1024)
def _names(description: str, name: str) -> bool:
    """Whether the description mentions the name as a word of its own."""
    return re.search(r"(?<![\w$.-])" + re.escape(name) + r"(?![\w$-])", description) is not None


def _only_empty(prop: dict) -> bool:
    """An object that admits only {} (no properties, no others: circleci's `params` of a tool
    without arguments) holds nothing to describe."""
    return prop.get("type") == "object" and not prop.get("properties") and prop.get("additionalProperties") is False \
        and not any(key in prop for key in ("patternProperties", "propertyNames", "unevaluatedProperties"))
