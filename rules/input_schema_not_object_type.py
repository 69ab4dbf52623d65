from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schema_dialects import show
from mcplint.schemas import tool_objects


class InputSchemaNotObjectType(Rule):
    """A tool's `inputSchema` does not declare `"type": "object"` at its root.

    ## Why
    Tool arguments are always a JSON object, and every version of the protocol
    schema requires the root of `inputSchema` to say so with the string
    `"object"`. A missing type, another type, or a list of types such as
    `["object", "null"]` does not match the protocol schema, and clients that
    check it reject the tool.

    ## Bad
    ```json
    {"tools": [{"name": "add", "inputSchema": {"properties": {"a": {"type": "number"}}}}]}
    ```

    ```json
    {"tools": [{"name": "tag", "inputSchema": {"type": "array", "items": {"type": "string"}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}}}]}
    ```
    """

    code = "MCP302"
    name = "input-schema-not-object-type"
    checklist = (4,)
    category = "schema"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        if all(schema.get("type") == "object" for schema in doc.census().values("inputSchema")
               if isinstance(schema, dict)):
            return  # most documents
        for ptr, tool in tool_objects(doc):
            schema = tool.get("inputSchema")
            if not isinstance(schema, dict) or schema.get("type") == "object":
                continue  # not an object: MCP301
            if "type" not in schema:
                yield Violation(
                    ptr / "inputSchema", "'inputSchema' has no root 'type'; add \"type\": \"object\"",
                )
            else:
                hint = " (a list of types is not allowed here)" if isinstance(schema["type"], list) else ""
                yield Violation(
                    ptr / "inputSchema" / "type",
                    f"'inputSchema' root type is {show(schema['type'])}{hint}; tool arguments are an object, "
                    "so it must be \"object\"",
                )
