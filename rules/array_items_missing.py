from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.schemas import tool_schemas_any_dialect


class ArrayItemsMissing(Rule):
    """An array schema in `inputSchema` does not say what its items are.

    ## Why
    `{"type": "array"}` without `items` accepts a list of anything: the model
    has to guess whether to send strings, numbers or objects, and the server
    gets no validation of the elements. Say what each element is with `items`
    (or `prefixItems` for a fixed-position tuple in 2020-12).

    ## Bad
    ```json
    {"tools": [{"name": "tag_issue", "inputSchema": {"type": "object", "properties": {
      "labels": {"type": "array", "description": "Labels to add."}}}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "tag_issue", "inputSchema": {"type": "object", "properties": {
      "labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to add."}}}}]}
    ```
    """

    code = "MCP313"
    name = "array-items-missing"
    checklist = (5,)
    category = "schema"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        for entry in tool_schemas_any_dialect(doc):  # the version plays no part here
            if entry.field != "inputSchema":
                continue
            for path in entry.facts.arrays_without_items:
                what = f"Array parameter '{path[-1]}'" if len(path) > 1 and path[-2] == "properties" \
                    else "Array schema"
                yield Violation(
                    entry.at(path),
                    f"{what} has no 'items'; say what each element is, e.g. \"items\": {{\"type\": \"string\"}}",
                )
