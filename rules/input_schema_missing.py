from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schemas import tool_objects


class InputSchemaMissing(Rule):
    """A tool has no `inputSchema`, or its `inputSchema` is null or not a JSON object.

    ## Why
    Every protocol version requires `inputSchema`, and it must be a JSON Schema
    object: it is how the client knows which arguments to send, and clients
    reject (or silently drop) a tool without one. From 2025-11-25 the spec also
    says outright that it must not be `null`. A tool that takes no parameters
    still needs a schema, ideally `{"type": "object", "additionalProperties": false}`.

    ## Bad
    ```json
    {"tools": [{"name": "get_time", "description": "Get the current time."}]}
    ```

    ```json
    {"tools": [{"name": "get_time", "description": "Get the current time.", "inputSchema": null}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_time", "description": "Get the current time.",
                "inputSchema": {"type": "object", "additionalProperties": false}}]}
    ```
    """

    code = "MCP301"
    name = "input-schema-missing"
    checklist = (4,)
    category = "schema"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        census = doc.census()
        if len(census.values("inputSchema")) == len(census.tools) and census.types_of("inputSchema") <= {dict}:
            return  # every tool has one: most documents
        for ptr, tool in tool_objects(doc):
            if not isinstance(tool.get("inputSchema"), dict):
                yield from self._check(ptr, tool)

    @staticmethod
    def _check(ptr, tool):
        if "inputSchema" not in tool:
            yield Violation(
                ptr, "Tool has no 'inputSchema'; add one, e.g. "
                '{"type": "object", "additionalProperties": false} for a tool without parameters',
            )
            return
        schema = tool["inputSchema"]
        if schema is None:
            yield Violation(
                ptr / "inputSchema", "'inputSchema' is null; it must be a JSON Schema object, e.g. "
                '{"type": "object", "additionalProperties": false} for a tool without parameters',
            )
        elif not isinstance(schema, dict):
            kind = {bool: "a boolean", list: "an array", str: "a string"}.get(type(schema), "a number")
            yield Violation(
                ptr / "inputSchema", f"'inputSchema' is {kind}; it must be a JSON Schema object "
                'with "type": "object"',
            )
