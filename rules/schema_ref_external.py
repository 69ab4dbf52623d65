from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schema_dialects import show
from mcplint.schema_refs import EXTERNAL, NETWORK, resolve
from mcplint.schemas import tool_schemas


class SchemaRefExternal(Rule):
    """A `$ref` in a tool schema points outside the schema: to the network or another file.

    ## Why
    Clients see a tool schema on its own, with nothing else to resolve refs
    against. From 2026-07-28 the spec forbids dereferencing network `$ref`s by
    default and says a schema with an unresolvable external `$ref` should be
    rejected rather than treated as permissive; a ref to a relative file cannot
    be resolved at all. mcplint never fetches such refs. Inline the definition
    under `$defs` instead. Refs to the JSON Schema metaschemas are fine.

    ## Bad
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "https://schemas.example.com/address.json"}}}}]}
    ```

    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "common.json#/$defs/Address"}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/$defs/Address"}},
      "$defs": {"Address": {"type": "string"}}}}]}
    ```
    """

    code = "MCP323"
    name = "schema-ref-external"
    checklist = (6,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        for entry in tool_schemas(doc, ctx.version):
            for ref in entry.facts.refs:
                where = resolve(entry.schema, entry.facts, ref)
                if where == NETWORK:
                    yield Violation(
                        entry.at(ref.path) / "$ref",
                        f"'$ref' {show(ref.ref)} points to the network; clients must not fetch it "
                        "(it was not fetched), so inline the definition under '$defs'",
                    )
                elif where == EXTERNAL:
                    yield Violation(
                        entry.at(ref.path) / "$ref",
                        f"'$ref' {show(ref.ref)} points to another document that clients cannot "
                        "resolve; inline the definition under '$defs'",
                    )
