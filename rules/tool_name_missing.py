from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation


class ToolNameMissing(ToolRule):
    """A tool has no name, an empty name, or a name that is not a string.

    ## Why
    `name` is required by every version of the protocol: it is how the client calls
    the tool. A tool without a usable name cannot be called at all.

    ## Bad
    ```json
    {"tools": [{"name": "", "description": "Get the current time.", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_current_time", "description": "Get the current time.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP201"
    name = "tool-name-missing"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR

    def candidates(self, doc, ctx):
        return doc.census().without_words("name")  # missing, not a string, or blank

    def check_tool(self, ptr, tool, ctx):
        if "name" not in tool:
            yield Violation(ptr, "Tool has no 'name'")
        elif not isinstance(tool["name"], str):
            yield Violation(ptr / "name", f"Tool name must be a string, not {type(tool['name']).__name__}")
        elif not tool["name"].strip():
            yield Violation(ptr / "name", "Tool name is empty")
