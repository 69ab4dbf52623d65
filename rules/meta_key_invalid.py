from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation
from mcplint.tool_fields import meta_key_problem


class MetaKeyInvalid(ToolRule):
    """A key in a tool's `_meta` breaks the `_meta` key naming rules or uses a prefix reserved for MCP.

    ## Why
    `_meta` keys are an optional prefix (dot-separated labels ending in `/`, e.g.
    `com.example/`) plus a name that starts and ends with a letter or digit. Prefixes
    whose second label is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`,
    `dev.mcp/`) are reserved for MCP itself; in 2025-06-18 the rule was any
    `mcp`/`modelcontextprotocol` label followed by another label (`mcp.dev/`). A key that
    breaks the grammar may be rejected, and a key under a reserved prefix may clash
    with what the protocol defines there later. Keys the spec itself defines are
    accepted. Use a reverse-DNS prefix you own: `com.example/cache-hint`.

    ## Bad
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "_meta": {"io.modelcontextprotocol/priority": 1, "-internal-": true}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"},
                "_meta": {"com.example.mcp/priority": 1, "ui": {"resourceUri": "ui://weather/view"},
                          "openai/outputTemplate": "ui://weather/view"}}]}
    ```
    """

    code = "MCP106"
    name = "meta-key-invalid"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_06_18)

    fields = frozenset({"_meta"})

    def check_tool(self, ptr, tool, ctx):
        meta = tool.get("_meta")
        if not isinstance(meta, dict):
            return
        for key in meta:
            problem = meta_key_problem(key, ctx.version)
            if problem:
                yield Violation(ptr / "_meta" / key, f"_meta key '{key}' is invalid: {problem}", at_key=True)
