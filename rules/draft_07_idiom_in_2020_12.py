from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schema_dialects import DRAFT2020
from mcplint.schemas import tool_schemas

_ADVICE = {
    "definitions": "2020-12 keeps reusable schemas under '$defs' (refs then read '#/$defs/...')",
    "dependencies": "2020-12 split it into 'dependentRequired' (name lists) and 'dependentSchemas'",
    "additionalItems": "2020-12 ignores it; use 'prefixItems' for the fixed part and 'items' for the rest",
}

# `#/definitions/X` is a JSON Pointer that resolves in 2020-12 too: only a note.
_STILL_WORKS = {"definitions": Severity.INFO}


class Draft07IdiomIn202012(Rule):
    """A 2020-12 schema uses a draft-07 keyword that 2020-12 renamed or dropped.

    ## Why
    A schema without `$schema` is JSON Schema 2020-12 from protocol 2025-11-25 on.
    Keywords carried over from draft-07 then mean something else or nothing:
    `additionalItems` is ignored, and `dependencies` survives only as a deprecated
    compatibility keyword that validators may not honour. `definitions` still
    works (a `#/definitions/...` ref is a plain JSON Pointer in 2020-12), so it is
    only a note (info).
    Either rewrite them in 2020-12 terms or declare
    `"$schema": "http://json-schema.org/draft-07/schema#"`. Array-form `items` is
    invalid in 2020-12 and reported by MCP320. Schemas linted at earlier protocol
    versions without `$schema`, and schemas that declare draft-07, are not checked.

    ## Bad
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/definitions/Address"}},
      "definitions": {"Address": {"type": "string"}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/$defs/Address"}},
      "$defs": {"Address": {"type": "string"}}}}]}
    ```

    ```json protocol=2025-06-18
    {"tools": [{"name": "ship", "inputSchema": {"type": "object",
      "properties": {"to": {"$ref": "#/definitions/Address"}},
      "definitions": {"Address": {"type": "string"}}}}]}
    ```
    """

    code = "MCP321"
    name = "draft-07-idiom-in-2020-12"
    checklist = (6,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        for entry in tool_schemas(doc, ctx.version):
            if entry.facts.dialect != DRAFT2020:
                continue
            for path, keyword in entry.facts.idioms:
                yield Violation(
                    entry.at(path), f"'{keyword}' is a draft-07 keyword in a 2020-12 schema; {_ADVICE[keyword]}",
                    at_key=True, severity=_STILL_WORKS.get(keyword),
                )
