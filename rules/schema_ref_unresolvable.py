from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schema_dialects import show
from mcplint.schema_refs import MISSING, resolve
from mcplint.schemas import tool_schemas


class SchemaRefUnresolvable(Rule):
    """A local `$ref` in a tool schema points at nothing inside the schema.

    ## Why
    Tool schemas travel alone: a `$ref` such as `#/$defs/Address` can only be
    resolved inside the same `inputSchema` or `outputSchema`. When the target
    is missing (a typo, a definition that was dropped, `#/definitions/...`
    while the definitions live under `$defs`), validators fail on the whole
    schema and clients reject the tool or every call to it. Refs to other
    documents are reported by MCP323.

    ## Bad
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/definitions/Address"}},
      "$defs": {"Address": {"type": "string"}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/$defs/Address"}},
      "$defs": {"Address": {"type": "string"}}}}]}
    ```
    """

    code = "MCP322"
    name = "schema-ref-unresolvable"
    checklist = (6,)
    category = "schema"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for entry in tool_schemas(doc, ctx.version):
            for ref in entry.facts.refs:
                if resolve(entry.schema, entry.facts, ref) == MISSING:
                    yield Violation(
                        entry.at(ref.path) / "$ref",
                        f"'$ref' {show(ref.ref)} does not resolve inside '{entry.field}'; "
                        "point it at an existing definition (e.g. under '$defs')",
                    )
