import difflib

from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import ANNOTATION_KEYS, TOOL_FIELDS


def _suggest(key: str, known) -> str:
    squashed = key.lower().replace("_", "").replace("-", "")
    for name in known:
        if squashed in (name.lower().replace("_", ""), name.lower().removesuffix("hint")):
            return f"; did you mean '{name}'?"
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
    return f"; did you mean '{close[0]}'?" if close else ""


class UnknownToolField(ToolRule):
    """A tool, or its annotations, has a member that no protocol version defines.

    ## Why
    The Tool type is open, so an unknown member is not a protocol error, but no
    client reads it either. Often it is a typo or a casing slip (`input_schema`,
    `readonly`, `destructive`) and the value the author meant to send is silently
    missing: a misspelled `readOnlyHint` leaves the tool with the default "may modify
    its environment". Vendor data belongs in `_meta` under your own prefix. Fields
    that exist in another protocol version are MCP103's.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "annotations": {"readonly": true}, "category": "weather"}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true},
                "_meta": {"com.example/category": "weather"}}]}
    ```
    """

    code = "MCP107"
    name = "unknown-tool-field"
    category = "protocol"
    severity = Severity.INFO

    def candidates(self, doc, ctx):
        census = doc.census()  # only tools with a field or annotation no version defines: most documents none
        unknown = census.fields.difference(TOOL_FIELDS)
        odd = census.annotation_keys.difference(ANNOTATION_KEYS)
        if not unknown and not odd:
            return []
        return [(ptr, tool) for ptr, tool in census.tools if not unknown.isdisjoint(tool)
                or (isinstance(annotations := tool.get("annotations"), dict) and not odd.isdisjoint(annotations))]

    def check_tool(self, ptr, tool, ctx):
        for key in tool:
            if key not in TOOL_FIELDS:
                yield Violation(
                    ptr / key,
                    f"Tool field '{key}' is not defined by any MCP version and clients ignore it"
                    f"{_suggest(key, TOOL_FIELDS)}",
                    at_key=True,
                )
        annotations = tool.get("annotations")
        if isinstance(annotations, dict):
            for key in annotations:
                if key not in ANNOTATION_KEYS:
                    yield Violation(
                        ptr / "annotations" / key,
                        f"Annotation '{key}' is not a tool annotation and clients ignore it"
                        f"{_suggest(key, ANNOTATION_KEYS)}",
                        at_key=True,
                    )
