import re
from itertools import islice

from mcplint.findings import Severity
from mcplint.lazy_regex import LazyPattern
from mcplint.regex_cache import regex
from mcplint.rule import Rule, Violation
from mcplint.schemas import free_form_object, name_tokens, tool_schemas_any_dialect

_EVIDENCE = LazyPattern(
    r"\b(?:the|a|an)\s+(?:given|specified|provided|supplied|requested|passed[- ]in)\s+[a-z]\w*"
    r"|\b(?:identified|specified|selected)\s+by\s+(?:its\s+|their\s+|the\s+)?[a-z]\w*"
    r"|\bby\s+(?:its\s+|their\s+)?(?:id|ids|uuid|name|key|slug|email|path|url)\b"
    r"|\{[A-Za-z_][A-Za-z0-9_]*\}"
    r"|^\s*(?:args|arguments|parameters|params)\s*:"
    r"|\b(?:takes|accepts|requires|expects)\s+(?:a|an|the|one|two|\d+)\s+(?:\w+\s+){0,2}"
    r"(?:argument|parameter|param)s?\b"
    r"|\bwith\s+the\s+following\s+(?:arguments|parameters)\b",
    re.I | re.M,
)
_ORDERING = LazyPattern(r"\b(?:sort|sorted|order|ordered|group|grouped|indexed|keyed)\s+$", re.I)
_NO_ARGUMENTS = LazyPattern(
    r"\b(?:no|without|zero)\s+(?:\w+\s+)?(?:arguments|parameters|params|inputs?)\b"
    r"|\btakes\s+nothing\b|\bdoes\s*(?:not|n't)\s+(?:take|require|need)\b",
    re.I,
)


class InputSchemaAcceptsAnything(Rule):
    """A tool evidently takes arguments, but its `inputSchema` declares none and accepts anything.

    ## Why
    `{"type": "object"}` (or one with empty `properties`) is right for a tool
    without parameters. When the name or description shows that the tool works
    on something the caller chooses ("get_user_by_id", "the given file",
    `{path}` placeholders, an "Args:" list), such a schema tells the model
    nothing about what to send and validates nothing: arguments are guessed and
    checked only, if at all, inside the tool. The rule looks for clear evidence
    only and stays silent on descriptions that say the tool takes no arguments.
    An "Args:" list holding only `ctx` or `context` typed or described as the MCP
    context (`ctx: MCP context for logging`) is no evidence: FastMCP injects that
    argument itself and leaves it out of the schema.

    ## Bad
    ```json
    {"tools": [{"name": "get_user_by_id", "description": "Get the user with the given ID.",
                "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_user_by_id", "description": "Get the user with the given ID.",
                "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
               {"name": "get_time", "description": "Get the current time.",
                "inputSchema": {"type": "object", "additionalProperties": false}},
               {"name": "list_services", "description": "Get the list of available services.\\n\\nArgs:\\n    ctx: MCP context for logging and error handling\\n\\nReturns:\\n    List of services",
                "inputSchema": {"type": "object", "properties": {}}}]}
    ```
    """

    code = "MCP330"
    name = "input-schema-accepts-anything"
    checklist = (16,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        free: dict[int, bool] = {}  # schemas that share facts have the same text: judged once
        for entry in tool_schemas_any_dialect(doc):  # the object inputSchemas, in tool order
            if entry.field != "inputSchema":
                continue
            if id(entry.facts) not in free:
                free[id(entry.facts)] = free_form_object(entry.schema)
            if not free[id(entry.facts)]:
                continue
            evidence = _evidence(entry.tool)
            if evidence:
                yield Violation(
                    entry.tool_ptr / "inputSchema", f"Tool evidently takes arguments ({evidence}) but its inputSchema "
                    "declares no properties and accepts any object; list the parameters under 'properties'",
                )


def _evidence(tool: dict) -> str | None:
    description = tool.get("description") if isinstance(tool.get("description"), str) else ""
    if _NO_ARGUMENTS.search(description):
        return None
    name = tool.get("name")
    if isinstance(name, str):
        tokens = name_tokens(name)
        if "by" in tokens[1:-1]:
            return f"its name {name!r} selects something by {tokens[tokens.index('by') + 1]!r}"
    for match in islice(_EVIDENCE.finditer(description), _MAX_EVIDENCE_LOOKS):
        if _ORDERING.search(description, max(0, match.start() - 100), match.start()):  # "sorted by name" selects nothing
            continue
        if match.group().rstrip().endswith(":") and _only_context(description, match):
            continue  # "Args:\n    ctx: MCP context ...": the SDK injects it, the schema rightly leaves it out
        return f"its description says {' '.join(match.group().split())!r}"
    return None


_MAX_EVIDENCE_LOOKS = 32  # a hostile text of many "sorted by" or ctx-only "Args:" costs 32 looks


# A docstring entry for the MCP context FastMCP injects (`ctx: Context`), which is no argument:
# named ctx or context, and typed or described as the MCP context.
_ARG_LINE = regex(r"(?P<name>[A-Za-z_]\w*)[ \t]*(?:\((?P<type>[^)\n]*)\))?[ \t]*:[ \t]*(?P<text>[^\n]*)")
_CONTEXT_TYPE = regex(r"\bContext\b")
_CONTEXT_TEXT = regex(r"\b(?:Fast)?MCP\s+(?:request\s+|server\s+)?context\b|\brequest\s+context\b"
                      r"|^\s*(?:the\s+)?(?:MCP\s+)?Context(?:\s+object)?\s*[.,]?\s*$", re.I)
_MAX_SECTION_LINES = 50


def _only_context(description: str, header: re.Match) -> bool:
    """Whether the "Args:" section ``header`` opens lists only the injected MCP context."""
    line = description[description.rfind("\n", 0, header.end()) + 1:header.end()]  # (the match may start lines above)
    header_indent = len(line) - len(line.lstrip())
    entries, indent = [], None
    for line in description[header.end():header.end() + 4000].split("\n")[1:_MAX_SECTION_LINES]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth <= header_indent:
            break  # "Returns:", or the text goes on
        if indent is None or depth <= indent:
            indent = depth
            entries.append(line.strip())
    if not entries:
        return False
    for entry in entries:
        found = _ARG_LINE.fullmatch(entry)
        if not found or found["name"].lower() not in ("ctx", "context"):
            return False
        if found["type"] is not None:  # typed: `ctx (Context)`, not `context (str)`
            if not _CONTEXT_TYPE.search(found["type"]):
                return False
        elif not _CONTEXT_TEXT.search(found["text"]):
            return False
    return True
