from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation


class AnnotationsContradictory(ToolRule):
    """A tool's annotations claim it is both read-only and destructive.

    ## Why
    `destructiveHint` only means something when `readOnlyHint` is false: a tool that
    does not modify its environment cannot destroy anything in it. `readOnlyHint:
    true` together with `destructiveHint: true` is a contradiction, and clients will
    disagree about which hint wins. Decide what the tool does and fix the wrong one.
    (An explicit `idempotentHint` next to `readOnlyHint: true` is merely redundant,
    and is not reported.)

    ## Bad
    ```json
    {"tools": [{"name": "get_report", "description": "Get a report.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true, "destructiveHint": true}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_report", "description": "Get a report.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true}}]}
    ```
    """

    code = "MCP412"
    name = "annotations-contradictory"
    checklist = (20,)
    category = "security"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        census = doc.census()  # only when some tool says readOnlyHint and some destructiveHint true
        if not all(any(value is True for value in census.annotation_values(key))
                   for key in ("readOnlyHint", "destructiveHint")):
            return []
        return census.with_any({"annotations"})

    def check_tool(self, ptr, tool, ctx):
        annotations = tool.get("annotations")
        if not isinstance(annotations, dict):
            return
        if annotations.get("readOnlyHint") is True and annotations.get("destructiveHint") is True:
            yield Violation(
                ptr / "annotations" / "destructiveHint",
                "Annotations say readOnlyHint: true and destructiveHint: true; a read-only tool cannot be "
                "destructive: fix whichever is wrong",
                related=((ptr / "annotations" / "readOnlyHint", "readOnlyHint: true is here"),),
            )
