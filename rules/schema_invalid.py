from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schema_dialects import LENIENT, UNKNOWN, metaschema_error, show
from mcplint.schemas import is_valid, tool_schemas


class SchemaInvalid(Rule):
    """An `inputSchema` or `outputSchema` is not a valid JSON Schema in its dialect.

    ## Why
    From 2025-11-25 a tool schema must be valid under its declared dialect
    (`$schema`) or, without one, under JSON Schema 2020-12, and an unsupported
    `$schema` makes clients fail with an error. Earlier versions name no
    dialect and say nothing about schema validity, so the rule is checked from
    2025-11-25 on. It is a warning: the requirement is on the schema's author,
    and clients differ widely in what they accept (most validate arguments
    loosely or not at all), so mcplint's meta-validation predicts trouble rather
    than a protocol failure. An invalid
    schema can break argument validation in clients, which then reject the
    tool or every call to it. Draft-07 `$schema` declarations (as the TypeScript SDK
    emits) are honoured. Array-form `items` under 2020-12 is reported here,
    because 2020-12 only allows a schema there.

    ## Bad
    ```json
    {"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {
      "a": {"type": "integr"}}, "required": "a"}}]}
    ```

    ```json
    {"tools": [{"name": "add", "inputSchema": {"$schema": "https://example.com/my-dialect",
      "type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {
      "a": {"type": "integer", "minimum": 0}}, "required": ["a"]}}]}
    ```

    ```json
    {"tools": [{"name": "point", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
      "type": "object", "properties": {"xy": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}}}}]}
    ```
    """

    code = "MCP320"
    name = "schema-invalid"
    checklist = (6,)
    category = "schema"
    severity = Severity.WARNING  # see Why: clients differ on what they reject
    versions = versions.since(versions.V2025_11_25)

    def check(self, doc, ctx):
        for entry in tool_schemas(doc, ctx.version):
            found, field = entry.facts, entry.field
            if found.dialect == UNKNOWN:
                yield Violation(
                    entry.at(("$schema",)),
                    f"'{field}' declares the unsupported dialect {show(found.declared)}; clients must "
                    "reject it, so use 2020-12 (no $schema) or draft-07",
                )
            elif not is_valid(entry.schema, found):
                path, message = metaschema_error(entry.schema, found.dialect)
                dialect = "draft-07 or 2020-12" if found.dialect == LENIENT else found.dialect
                yield Violation(entry.at(path), f"'{field}' is not a valid JSON Schema ({dialect}): {message}")
