from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class NextCursorEmpty(Rule):
    """A tools/list result has an empty-string `nextCursor` (before 2026-07-28).

    ## Why
    A present `nextCursor` tells the client that more pages follow; only its absence
    marks the last page. An empty string is almost always a server that meant "no
    more pages": some clients then stop, others request the next page with an empty
    cursor, loop, or fail. Omit `nextCursor` on the last page. (From 2026-07-28 the spec
    states that an empty string *does* mean more pages, so it is not reported there.)

    ## Bad
    ```json protocol=2025-11-25
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}], "nextCursor": ""}
    ```

    ## Good
    ```json protocol=2025-11-25
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP110"
    name = "next-cursor-empty"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.until(versions.V2025_11_25)

    def check(self, doc, ctx):
        if doc.result is None:
            return
        ptr, result = doc.result
        if result.get("nextCursor") == "":
            yield Violation(ptr / "nextCursor", "nextCursor is an empty string; omit it on the last page, "
                                                "since any present cursor means more pages follow")
