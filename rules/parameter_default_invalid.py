import json

from mcplint.findings import Severity
from mcplint.rule import Rule
from mcplint.schemas import input_schemas, types_of, violations_once_per_schema

MAX_DEPTH = 32
_BRANCHES = ("anyOf", "oneOf", "allOf")


class ParameterDefaultInvalid(Rule):
    """A parameter's `default` is a value its own schema rejects.

    ## Why
    JSON Schema recommends that a `default` be valid against its schema (2020-12
    validation, section 9.2). A default the schema rejects contradicts it: `"type":
    "string", "default": null` (what pydantic writes for `name: str = None`) tells the
    model that leaving the value out means `null`, which the server's own validation
    refuses if a client or model sends it, and tells it nothing true about what omitting
    the parameter does. Make the default a value of the declared type (or one of the
    `enum`), or allow it in the schema (`"anyOf": [{"type": "string"}, {"type": "null"}]`
    for an optional string). Checked where the property states its own `type`, `enum` or
    `const`; a property whose type comes from `anyOf`, `oneOf`, `allOf` or a `$ref` is
    left alone. A `null` default of a type that excludes null, the commonest case, is a note
    (info): it stands for "left out", though the schema says otherwise.

    ## Bad
    ```json
    {"tools": [{"name": "get_quote", "inputSchema": {"type": "object", "properties": {
      "symbol": {"type": "string", "description": "Ticker symbol.", "default": null},
      "period": {"type": "string", "enum": ["1d", "5d"], "description": "Range.", "default": "1y"}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_quote", "inputSchema": {"type": "object", "properties": {
      "symbol": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Ticker symbol.", "default": null},
      "period": {"type": "string", "enum": ["1d", "5d"], "description": "Range.", "default": "1d"},
      "limit": {"type": "number", "description": "Rows.", "default": 10}}}}]}
    ```
    """

    code = "MCP316"
    name = "parameter-default-invalid"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING  # valid JSON Schema (default is an annotation); a defect of the tool

    def check(self, doc, ctx):
        yield from violations_once_per_schema(input_schemas(doc), _invalid_defaults)


def _invalid_defaults(entry) -> list[tuple[tuple, str]]:
    found: list[tuple[tuple, str]] = []
    _walk(entry.schema, (), found, 0)
    return found


def _walk(schema, path: tuple, found: list, depth: int) -> None:
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            sub_path = (*path, "properties", name)
            if isinstance(sub, dict):
                problem = _rejected(sub) if "default" in sub else None
                if problem and sub["default"] is None and "enum" not in sub and "const" not in sub:
                    # `str = None` written as the type alone: null stands for "left out", a note
                    found.append(((*sub_path, "default"), f"Parameter '{name}' has default null, which its own "
                                  f"schema rejects ({problem}); allow null (\"anyOf\": [..., {{\"type\": \"null\"}}]) "
                                  "or drop the default", Severity.INFO))
                elif problem:
                    found.append(((*sub_path, "default"), f"Parameter '{name}' has default {_shown(sub['default'])}, "
                                  f"which its own schema rejects ({problem}); make the default a valid value, or allow it"))
                _walk(sub, sub_path, found, depth + 1)
    items = schema.get("items")
    if isinstance(items, dict):
        _walk(items, (*path, "items"), found, depth + 1)
    for key in _BRANCHES:
        if isinstance(schema.get(key), list):
            for index, branch in enumerate(schema[key][:64]):
                _walk(branch, (*path, key, index), found, depth + 1)


def _rejected(schema: dict) -> str | None:
    """Why ``schema`` rejects its own default, or None (valid, or not told by type, enum or const)."""
    if any(key in schema for key in (*_BRANCHES, "$ref", "not", "if")):
        return None
    value = schema["default"]
    if "const" in schema and not _same(value, schema["const"]):
        return f"const {_shown(schema['const'])}"
    if isinstance(schema.get("enum"), list) and not any(_same(value, option) for option in schema["enum"]):
        return "not one of its enum"
    kinds = types_of(schema)
    if kinds and not any(_is_type(value, kind) for kind in kinds):
        return f'"type": {json.dumps(schema["type"])}'
    return None


def _is_type(value, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and value.is_integer()
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return True  # a type mcplint does not know: MCP320's matter


def _same(one, other) -> bool:
    """JSON equality: 1 and 1.0 are equal, true and 1 are not."""
    from mcplint.capture.content import json_equal  # only for an enum or a const

    return json_equal(one, other)


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
