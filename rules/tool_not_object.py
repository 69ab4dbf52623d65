from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type


class ToolNotObject(Rule):
    """The `tools` member is not an array, or an entry of it is not a tool object.

    ## Why
    A tools/list result carries `tools`, an array of Tool objects, in every protocol
    version. A client that gets an object, a string or `null` instead cannot list
    any tool, and an entry that is a string or a number is not a tool at all: clients
    either drop it or reject the whole list.

    ## Bad
    ```json
    {"tools": {"name": "get_weather", "inputSchema": {"type": "object"}}}
    ```

    ```json
    {"tools": ["get_weather", {"name": "get_forecast", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP102"
    name = "tool-not-object"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        if "tools" in doc.lists:  # a tools/list result, a response wrapping one, or a server listing
            tools = doc.value_at(doc.tools_pointer)
            if not isinstance(tools, list):
                yield Violation(
                    doc.tools_pointer,
                    f"'tools' must be an array of tool objects, not {json_type(tools)}",
                )
                return
        if len(doc.tool_objects()) == len(doc.tools()):
            return  # every entry an object: most documents
        for ptr, tool in doc.tools():
            if not isinstance(tool, dict):
                yield Violation(ptr, f"Entry {ptr[-1]} of 'tools' is {json_type(tool)}, not a tool object")
