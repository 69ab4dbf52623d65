from mcplint.findings import Severity
from mcplint.rule import Rule
from mcplint.schema_safety import Uncheckable, search
from mcplint.schema_refs import local_target, value_at
from mcplint.schemas import accepts_anything, tool_schemas_any_dialect, violations_once_per_schema

_BRANCHES = ("allOf", "anyOf", "oneOf")


class RequiredPropertyUndefined(Rule):
    """`required` names a property that the schema never defines.

    ## Why
    A name in `required` that is missing from `properties` is almost always a
    typo or a parameter that was renamed: clients must send a value that the
    schema never describes, so the model cannot know what it is, and calls
    that look correct are rejected. Names defined by `patternProperties`, by
    `allOf`/`anyOf`/`oneOf` branches, `then`/`else` or a local `$ref` count as
    defined; a schema whose `additionalProperties` is itself a schema (a map)
    is left alone. Checked in `inputSchema` and `outputSchema`, at every level.
    Such a schema is still valid JSON Schema and the spec says nothing against it,
    so this is a warning (checklist item 5), not an error.

    ## Bad
    ```json
    {"tools": [{"name": "get_issue", "inputSchema": {"type": "object",
      "properties": {"issue_id": {"type": "string"}}, "required": ["issueId"]}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_issue", "inputSchema": {"type": "object",
      "properties": {"issue_id": {"type": "string"}}, "required": ["issue_id"]}}]}
    ```
    """

    code = "MCP312"
    name = "required-property-undefined"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING  # valid JSON Schema; a defect of the tool, not of the protocol

    def check(self, doc, ctx):
        yield from violations_once_per_schema(tool_schemas_any_dialect(doc), _undefined)


def _undefined(entry) -> list[tuple[tuple, str]]:
    """(path, message) of each name a ``required`` of the schema lists but does not define."""
    found = []
    for path in entry.facts.required_gaps:  # the version plays no part here
        obj = value_at(entry.schema, path)
        defined = _defined(obj, entry.schema)
        if defined is None:
            continue
        names, patterns = defined
        for index, name in enumerate(obj["required"]):
            if isinstance(name, str) and name not in names and not _matches(patterns, name):
                found.append(((*path, "required", index), f"'required' lists {name!r}, which is not "
                              "defined in 'properties'; fix the name or add the property"))
    return found


def _defined(obj: dict, root) -> tuple[set, list] | None:
    """Property names and patterns the object schema defines; None when it cannot be known."""
    extra = obj.get("additionalProperties")
    if isinstance(extra, dict) and not accepts_anything(extra):
        return None
    names: set = set()
    patterns: list = []
    schemas = [obj]
    for key in _BRANCHES:
        if isinstance(obj.get(key), list):
            schemas.extend(obj[key])
    schemas.extend(obj.get(key) for key in ("then", "else"))
    seen: set = set()
    for schema in schemas:
        if not isinstance(schema, dict) or id(schema) in seen:
            continue
        seen.add(id(schema))
        if "$ref" in schema:
            target = local_target(root, schema["$ref"])
            if not isinstance(target, dict):
                return None  # defined somewhere we cannot see
            schemas.append(target)
        if isinstance(schema.get("properties"), dict):
            names.update(schema["properties"])
        if isinstance(schema.get("patternProperties"), dict):
            patterns.extend(schema["patternProperties"])
    return names, patterns


def _matches(patterns: list, name: str) -> bool:
    for pattern in patterns:
        try:
            if search(pattern, name, "patternProperties"):  # under a time budget: the pattern is untrusted
                return True
        except (ValueError, Uncheckable):
            return True  # cannot tell; stay silent
    return False
