import re

from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import Rule
from mcplint.schema_refs import value_at
from mcplint.schemas import accepts_anything, input_schemas, violations_once_per_schema


class FreeFormParameter(Rule):
    """A parameter accepts any value at all: `{}`, `true`, or an object with no properties.

    ## Why
    A free-form parameter gives the model nothing to go on and the server no
    validation: anything is accepted, from a number to a nested object. Give it a
    `type`, and for objects either list the `properties` or constrain the values
    with `additionalProperties` (a string-to-string map is fine). A schema that
    only has annotations such as `description` counts as free-form too, and so
    does an object with an empty `properties`.

    Some objects are free-form by nature (a database query filter, a JsonLogic
    query): an object that says it takes any keys (`additionalProperties: true` or
    `{}`) and whose description says what goes in it, or whose description names the
    syntax it follows, is not reported, since no better schema can be written for it.
    Nor is a value whose `type` lists object and array (any JSON value by declaration:
    a JSON-patch `value`) when its description says what it holds.

    ## Bad
    ```json
    {"tools": [{"name": "run_query", "inputSchema": {"type": "object", "properties": {
      "query": {"type": "string", "description": "SQL to run."},
      "params": {"description": "Query parameters."}}}}]}
    ```

    ```json
    {"tools": [{"name": "run_query", "inputSchema": {"type": "object", "properties": {
      "options": {"type": "object", "description": "Options."}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "run_query", "inputSchema": {"type": "object", "properties": {
      "query": {"type": "string", "description": "SQL to run."},
      "params": {"type": "object", "description": "Named parameters.",
                 "additionalProperties": {"type": ["string", "number"]}}}}}]}
    ```

    ```json
    {"tools": [{"name": "find", "inputSchema": {"type": "object", "properties": {
      "filter": {"type": "object", "additionalProperties": {},
                 "description": "The query filter, in the syntax of db.collection.find()."}}}}]}
    ```
    """

    code = "MCP314"
    name = "free-form-parameter"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        yield from violations_once_per_schema(input_schemas(doc), _free_form)


def _free_form(entry) -> list[tuple[tuple, str]]:
    """(path, message) of each parameter of the schema that accepts anything."""
    found = []
    for path, name in entry.facts.free_form:  # the version plays no part here
        prop = value_at(entry.schema, path)
        if accepts_anything(prop):
            shown = "true" if prop is True else "{}" if not prop else "only annotations"
            found.append((path, f"Parameter '{name}' accepts any value (its schema is {shown}); give it "
                          "a 'type' and constraints"))
        elif _any_shape(prop):
            if not _described(prop):
                found.append((path, f"Parameter '{name}' accepts a value of any shape (its type names both object "
                              "and array, neither constrained) and no description says what it holds; narrow its "
                              "'type' or describe the value"))
        elif not _open_on_purpose(prop):
            found.append((path, f"Object parameter '{name}' declares no properties, so it accepts any keys "
                          "and values; list its 'properties' or constrain 'additionalProperties'"))
    return found


def _any_shape(prop) -> bool:
    """A type listing object and array (and more): any JSON value by declaration (grafana's
    JSON-patch `value`), free-form on purpose when a description says what it holds."""
    kinds = prop.get("type") if isinstance(prop, dict) else None
    return isinstance(kinds, list) and "object" in kinds and "array" in kinds


def _described(prop) -> bool:
    description = prop.get("description")
    return isinstance(description, str) and len(description.split()) >= 3


def _open_on_purpose(prop) -> bool:
    """Free-form by design: an object declared open (``additionalProperties`` true, ``{}`` or only
    annotations: mongodb's `fields`, "The field index definition ...")
    whose description says what it holds in a few words at least, or one whose description
    names the syntax it follows ("matching the syntax of db.collection.find()", "JsonLogic
    query object. ALWAYS follow query syntax in examples")."""
    description = prop.get("description") if isinstance(prop, dict) else None
    if not isinstance(description, str):
        return False
    if _SYNTAX.search(description[:2000]):
        return True
    return "additionalProperties" in prop and accepts_anything(prop["additionalProperties"]) and _described(prop)


_SYNTAX = regex(r"\b(?:syntax|grammar|query language)\b", re.IGNORECASE)
