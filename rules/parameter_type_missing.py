from mcplint.findings import Severity
from mcplint.rule import Rule
from mcplint.schemas import input_schemas, violations_once_per_schema


class ParameterTypeMissing(Rule):
    """A parameter schema constrains its value but says nothing about its type.

    ## Why
    Without a `type` (or an `enum`, `const`, `$ref` or a combinator such as
    `anyOf` that pins the value down), a model has to guess whether to send a
    string, a number or an object, and keywords like `minLength` silently do
    nothing for values of other types. Parameters that accept anything at all
    (`{}` or `true`) are reported by MCP314 instead. Parameters are the
    `inputSchema` properties, including nested ones under object parameters and
    array `items`.

    ## Bad
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object", "properties": {
      "query": {"description": "Words to look for.", "minLength": 1}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object", "properties": {
      "query": {"type": "string", "description": "Words to look for.", "minLength": 1},
      "scope": {"description": "Where to look.", "enum": ["issues", "wiki"]},
      "since": {"description": "Start date, or null.", "anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}}}}]}
    ```
    """

    code = "MCP310"
    name = "parameter-type-missing"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        yield from violations_once_per_schema(input_schemas(doc), _untyped)  # the version plays no part here


def _untyped(entry) -> list[tuple[tuple, str]]:
    return [(path, f"Parameter '{name}' has no 'type'; add one (e.g. \"string\") so clients know what "
             "kind of value to send") for path, name in entry.facts.untyped]
