import re

from mcplint.findings import Severity
from mcplint.lazy_regex import LazyPattern
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
                "inputSchema": {"type": "object", "additionalProperties": false}}]}
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
    for match in _EVIDENCE.finditer(description):
        if not _ORDERING.search(description, 0, match.start()):  # "sorted by name" selects nothing
            return f"its description says {' '.join(match.group().split())!r}"
    return None
