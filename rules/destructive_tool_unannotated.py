from mcplint import versions
from mcplint.findings import Severity
from mcplint.intent_census import intending
from mcplint.risk import tool_intent
from mcplint.rule import ToolRule, Violation


class DestructiveToolUnannotated(ToolRule):
    """A tool that looks destructive has neither a readOnlyHint nor a destructiveHint annotation.

    ## Why
    When `readOnlyHint` and `destructiveHint` are both absent, a client already
    assumes the spec's defaults (`readOnlyHint: false`, `destructiveHint: true`), so
    the tool is treated as destructive and nothing is unsafe. The spec makes
    annotations optional, so this is only a note (info): stating
    `destructiveHint: true` on a deleting, paying or executing tool documents that
    the decision was made. Annotations exist from protocol 2025-03-26 on.

    Reported when the tool's name (or, failing that, its description's leading verb)
    implies destroying, paying or executing, or its description says it executes SQL
    `DELETE`, `DROP` or `TRUNCATE` statements (named in capitals in its first
    clause: "Execute a DELETE query"), or it sends HTTP requests whose method a
    parameter picks from a list offering `DELETE` (a `method` enum of a generic API
    tool), and its annotations, if any, set neither `readOnlyHint` nor
    `destructiveHint`.

    ## Bad
    ```json
    {"tools": [{"name": "execute_command", "description": "Run a shell command on the host.",
                "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "execute_command", "description": "Run a shell command on the host.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true}}]}
    ```
    """

    code = "MCP411"
    name = "destructive-tool-unannotated"
    checklist = (20,)
    category = "security"
    severity = Severity.INFO
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        census = doc.census()  # only tools whose annotations say neither readOnlyHint nor destructiveHint
        if len(census.tools) in (len(census.annotation_values("readOnlyHint")),
                                 len(census.annotation_values("destructiveHint"))):
            return []  # every tool says one of them
        silent = [pair for pair, hints in zip(census.tools, census.column("annotations"))
                  if not isinstance(hints, dict) or ("readOnlyHint" not in hints and "destructiveHint" not in hints)]
        chosen = intending(silent, census.strings("description"))
        if len(chosen) < len(silent):  # the rest may still offer an HTTP DELETE
            some = {id(tool) for _, tool in chosen}
            chosen = [(ptr, tool) for ptr, tool in silent if id(tool) in some or _delete_method(tool)]
        return chosen

    def check_tool(self, ptr, tool, ctx):
        annotations = tool.get("annotations")
        if annotations is not None and not isinstance(annotations, dict):
            return  # MCP413 reports the malformed annotations
        if annotations and ("readOnlyHint" in annotations or "destructiveHint" in annotations):
            return
        intent = tool_intent(tool.get("name"), tool.get("description"))
        if intent is not None and intent.destructive:
            why = f"'{intent.verb}' in its {intent.source}"
        elif (parameter := _delete_method(tool)) is not None:
            why = f"its '{parameter}' parameter offers HTTP DELETE"
        else:
            return
        label = f"Tool '{tool['name']}'" if isinstance(tool.get("name"), str) else "Tool"
        where = ("has no annotations" if annotations is None
                 else "annotations set neither readOnlyHint nor destructiveHint")
        yield Violation(
            ptr if annotations is None else ptr / "annotations",
            f"{label} looks destructive ({why}) but {where}; "
            "clients assume the defaults (destructive), which is safe; "
            "destructiveHint: true would state it",
        )


# A parameter choosing the HTTP method of the request a generic API tool sends.
_METHOD_PARAMETERS = frozenset({"method", "http_method", "httpmethod", "request_method", "requestmethod", "verb",
                                "http_verb", "httpverb"})


def _delete_method(tool: dict) -> str | None:
    """The name of a top-level parameter that picks an HTTP method from an enum offering DELETE."""
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return None
    for name, spec in properties.items():
        if isinstance(name, str) and name.lower() in _METHOD_PARAMETERS and isinstance(spec, dict):
            choices = spec.get("enum")
            if isinstance(choices, list) and any(isinstance(v, str) and v.upper() == "DELETE" for v in choices):
                return name
    return None
