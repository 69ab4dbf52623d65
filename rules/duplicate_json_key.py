from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class DuplicateJsonKey(Rule):
    """An object in the document has the same key twice.

    ## Why
    JSON and YAML parsers disagree on which value wins when a key repeats: some keep
    the first, most keep the last, strict ones refuse the document. A client may see
    a different tool definition than the one you reviewed.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather", "name": "get_forecast",
                "description": "Get the weather forecast for a city.",
                "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_forecast",
                "description": "Get the weather forecast for a city.",
                "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP101"
    name = "duplicate-json-key"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for pointer in doc.document.duplicate_keys:
            yield Violation(
                pointer,
                f"Key '{pointer[-1]}' appears more than once; parsers disagree on which value wins",
                at_key=True,
            )
