from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import show


class OutputSchemaRootNotObject(ToolRule):
    """A tool's `outputSchema` does not have `type: "object"` at its root (before 2026-07-28).

    ## Why
    Up to protocol 2025-11-25, `structuredContent` is a JSON object and the Tool
    schema requires `outputSchema.type` to be `"object"`. A schema for an array, a
    string or a number (or one without `type`) cannot describe any valid structured
    result, and clients validating against it reject every call. From 2026-07-28 on
    any JSON Schema is allowed. For earlier versions, wrap the value in an object,
    e.g. `{"type": "object", "properties": {"result": ...}}`.

    ## Bad
    ```json protocol=2025-06-18
    {"tools": [{"name": "list_cities", "inputSchema": {"type": "object"},
                "outputSchema": {"type": "array", "items": {"type": "string"}}}]}
    ```

    ## Good
    ```json protocol=2025-06-18
    {"tools": [{"name": "list_cities", "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object", "properties": {"cities": {"type": "array", "items": {"type": "string"}}},
                                 "required": ["cities"]}}]}
    ```

    ```json protocol=2026-07-28
    {"tools": [{"name": "list_cities", "inputSchema": {"type": "object"},
                "outputSchema": {"type": "array", "items": {"type": "string"}}}]}
    ```
    """

    code = "MCP104"
    name = "output-schema-root-not-object"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_06_18) & versions.until(versions.V2025_11_25)

    fields = frozenset({"outputSchema"})

    def check_tool(self, ptr, tool, ctx):
        schema = tool.get("outputSchema")
        if not isinstance(schema, dict):
            return  # absent, or not an object at all (MCP108)
        if "type" not in schema:
            yield Violation(
                ptr / "outputSchema",
                f"outputSchema has no 'type'; protocol {ctx.version} requires type \"object\" at its root",
            )
        elif schema["type"] != "object":
            yield Violation(
                ptr / "outputSchema" / "type",
                f"outputSchema root type is {show(schema['type'])}; protocol {ctx.version} requires \"object\": "
                "wrap the value in an object property",
            )
