from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class ToolRemovedSinceLock(Rule):
    """A tool pinned in the lock file is no longer in the manifest.

    ## Why
    Clients, prompts and workflows that call a tool break when it disappears, and a tool
    that vanishes and comes back under another name is how a changed tool can dodge review.
    With `mcplint check --lock mcplint.lock`, every pinned tool missing from its manifest is
    reported at the manifest's tools array. If the removal is intended, run `mcplint lock`
    again. This rule runs only when a lock is given.

    ## Lock
    The examples are checked against this manifest, as pinned by `mcplint lock`:

    ```json
    {"tools": [
      {"name": "get_forecast", "description": "Get the weather forecast for a city.", "inputSchema": {"type": "object"}},
      {"name": "get_alerts", "description": "Get the weather alerts for a region.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Bad
    ```json
    {"tools": [
      {"name": "get_forecast", "description": "Get the weather forecast for a city.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    The same tools in another order:

    ```json
    {"tools": [
      {"name": "get_alerts", "description": "Get the weather alerts for a region.", "inputSchema": {"type": "object"}},
      {"name": "get_forecast", "description": "Get the weather forecast for a city.", "inputSchema": {"type": "object"}}
    ]}
    ```
    """

    code = "MCP503"
    name = "tool-removed-since-lock"
    checklist = ()
    category = "pinning"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        if ctx.lock is None:
            return
        from mcplint import pinning  # (imported with the lock itself; most runs have none)

        for name in pinning.compare(doc, ctx.lock).removed:
            yield Violation(
                doc.tools_pointer,
                f"Tool '{name}' is pinned in {ctx.lock.path} but missing from this manifest; "
                "if it was removed on purpose, run `mcplint lock` again",
            )
