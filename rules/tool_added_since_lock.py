from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class ToolAddedSinceLock(Rule):
    """A tool is not pinned in the lock file: it was added after the lock was written.

    ## Why
    A new tool is a new capability handed to the model, and a server update can add one
    without anyone noticing. With `mcplint check --lock mcplint.lock`, every tool that the
    lock does not pin is reported, including all the tools of a manifest the lock has no
    entry for. Review the tool, then run `mcplint lock` again to pin it. This rule runs only
    when a lock is given.

    ## Lock
    The examples are checked against this manifest, as pinned by `mcplint lock`:

    ```json
    {"tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city.",
      "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
    ```

    ## Bad
    ```json
    {"tools": [
      {"name": "get_forecast", "description": "Get the weather forecast for a city.",
       "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}},
      {"name": "run_command", "description": "Run a shell command on the server.",
       "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
    ]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city.",
      "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
    ```
    """

    code = "MCP502"
    name = "tool-added-since-lock"
    checklist = ()
    category = "pinning"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        if ctx.lock is None:
            return
        from mcplint import pinning  # (imported with the lock itself; most runs have none)

        comparison = pinning.compare(doc, ctx.lock)
        for ptr, name in comparison.added:
            if comparison.pinned:
                why = f"it was added since {ctx.lock.path} was written"
            else:
                why = f"{ctx.lock.path} has no entry for {doc.path}"
            yield Violation(
                ptr / "name",
                f"Tool '{name}' is not pinned: {why}; review the tool and run `mcplint lock` to pin it",
            )
