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
    clause: "Execute a DELETE query"), and its
    annotations, if any, set neither `readOnlyHint` nor `destructiveHint`.

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
        return intending([pair for pair, hints in zip(census.tools, census.column("annotations"))
                          if not isinstance(hints, dict) or ("readOnlyHint" not in hints and "destructiveHint" not in hints)],
                         census.strings("description"))

    def check_tool(self, ptr, tool, ctx):
        annotations = tool.get("annotations")
        if annotations is not None and not isinstance(annotations, dict):
            return  # MCP413 reports the malformed annotations
        if annotations and ("readOnlyHint" in annotations or "destructiveHint" in annotations):
            return
        intent = tool_intent(tool.get("name"), tool.get("description"))
        if intent is None or not intent.destructive:
            return
        label = f"Tool '{tool['name']}'" if isinstance(tool.get("name"), str) else "Tool"
        where = ("has no annotations" if annotations is None
                 else "annotations set neither readOnlyHint nor destructiveHint")
        yield Violation(
            ptr if annotations is None else ptr / "annotations",
            f"{label} looks destructive ('{intent.verb}' in its {intent.source}) but {where}; "
            "clients assume the defaults (destructive), which is safe; "
            "destructiveHint: true would state it",
        )
