from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation

_JSON_TYPES = {type(None): "null", bool: "a boolean", int: "a number", float: "a number",
               list: "an array", dict: "an object"}


class ToolDescriptionMissing(ToolRule):
    """A tool has no description, an empty one, or one that is not a string.

    ## Why
    The description is what a model reads to decide whether and how to call a tool.
    The protocol makes it optional, but without it the model has only the name to go
    on, and picks the wrong tool or passes the wrong arguments.

    ## Bad
    ```json
    {"tools": [
      {"name": "get_forecast", "inputSchema": {"type": "object"}},
      {"name": "get_alerts", "description": "  ", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city for the next 5 days.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP210"
    name = "tool-description-missing"
    checklist = (2,)
    category = "description"
    severity = Severity.WARNING

    def candidates(self, doc, ctx):
        return doc.census().without_words("description")  # missing, not a string, or blank

    def check_tool(self, ptr, tool, ctx):
        if "description" not in tool:
            yield Violation(ptr, "Tool has no 'description'; add one that says what the tool does")
        elif not isinstance(tool["description"], str):
            kind = _JSON_TYPES.get(type(tool["description"]), "a non-string value")
            yield Violation(ptr / "description", f"Tool description is {kind}, not a string; say what the tool does")
        elif not tool["description"].strip():
            yield Violation(ptr / "description", "Tool description is empty; say what the tool does")
