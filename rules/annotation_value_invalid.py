from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import ANNOTATION_HINTS, json_type, show


class AnnotationValueInvalid(ToolRule):
    """A tool's `annotations` is not an object, or a hint in it is not a boolean.

    ## Why
    `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` are
    booleans, and `title` is a string. A client that gets `"true"` or `1` either
    rejects the tool or, worse, falls back to a default or treats any non-empty string
    as true: `"readOnlyHint": "false"` is truthy in JavaScript. Unknown annotation
    keys are MCP107's.

    ## Bad
    ```json
    {"tools": [{"name": "delete_file", "description": "Delete a file.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": "false", "destructiveHint": 1}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "delete_file", "description": "Delete a file.",
                "inputSchema": {"type": "object"},
                "annotations": {"title": "Delete file", "readOnlyHint": false, "destructiveHint": true}}]}
    ```
    """

    code = "MCP413"
    name = "annotation-value-invalid"
    checklist = (20,)
    category = "security"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        census = doc.census()  # only when some annotations are not an object or hold a value of a wrong type
        if "annotations" not in census.fields:
            return []
        wrong = census.types_of("annotations") - {dict} or census.annotation_types_of("title") - {str} or any(
            census.annotation_types_of(key) - {bool} for key in ANNOTATION_HINTS)
        return census.with_any({"annotations"}) if wrong else []

    def check_tool(self, ptr, tool, ctx):
        if "annotations" not in tool:
            return
        annotations = tool["annotations"]
        if not isinstance(annotations, dict):
            yield Violation(ptr / "annotations", f"Tool annotations must be an object, not {json_type(annotations)}")
            return
        for key in ANNOTATION_HINTS:
            if key in annotations and not isinstance(annotations[key], bool):
                value = annotations[key]
                hint = f"; write {str(value).lower()} without quotes" if str(value).lower() in ("true", "false") else ""
                yield Violation(
                    ptr / "annotations" / key,
                    f"Annotation {key} must be a boolean, not {json_type(value)} {show(value)}{hint}",
                )
        if "title" in annotations and not isinstance(annotations["title"], str):
            yield Violation(
                ptr / "annotations" / "title",
                f"Annotation title must be a string, not {json_type(annotations['title'])}",
            )
