import re

from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import Rule
from mcplint.schema_refs import value_at
from mcplint.schemas import input_schemas, violations_once_per_schema

# A JSON or JavaScript object with at least one key, as a description shows an example value:
# `{"password": "123456"}`, `{ name: 'x' }`.
_KEYED_OBJECT = regex(r"\{\s*[\"']?[A-Za-z_$][\w$.-]*[\"']?\s*:", re.ASCII)


class ClosedObjectWithDescribedKeys(Rule):
    """An object parameter admits only `{}`, yet its description shows it with keys.

    ## Why
    An object with no `properties` and `"additionalProperties": false` accepts one value,
    the empty object. When its description shows an example with keys, every call that
    follows the description is rejected by the schema (or the keys are dropped by a client
    that trims arguments to the schema): the two contradict each other, and the model
    cannot use the parameter as documented. Declare the keys under `properties`, or allow
    them with `additionalProperties` (a schema for their values).

    ## Bad
    ```json
    {"tools": [{"name": "act", "inputSchema": {"type": "object", "properties": {
      "variables": {"type": "object", "properties": {}, "additionalProperties": false,
                    "description": "Values to fill in, e.g. {\\"password\\": \\"123456\\"}."}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "act", "inputSchema": {"type": "object", "properties": {
      "variables": {"type": "object", "additionalProperties": {"type": "string"},
                    "description": "Values to fill in, e.g. {\\"password\\": \\"123456\\"}."},
      "options": {"type": "object", "properties": {}, "additionalProperties": false,
                  "description": "Reserved; pass {}."}}}}]}
    ```
    """

    code = "MCP315"
    name = "closed-object-with-described-keys"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        yield from violations_once_per_schema(input_schemas(doc), _contradicted)


def _contradicted(entry) -> list[tuple[tuple, str]]:
    found = []
    for path, name in entry.facts.closed_empty:
        prop = value_at(entry.schema, path)
        description = prop.get("description") if isinstance(prop, dict) else None
        if isinstance(description, str) and _KEYED_OBJECT.search(description[:4000]):
            found.append((path, f"Object parameter '{name}' admits only {{}} (no properties, additionalProperties: "
                                "false), yet its description shows it with keys; declare them under 'properties' "
                                "or allow them with 'additionalProperties'"))
    return found
