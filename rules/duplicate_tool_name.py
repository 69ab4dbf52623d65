from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class DuplicateToolName(Rule):
    """Two tools in one manifest have the same name.

    ## Why
    A tool is called by its name, so names must identify tools uniquely within a
    server. With a duplicate, clients either hide one tool or call the wrong one.

    ## Bad
    ```json
    {"tools": [
      {"name": "search", "description": "Search the issue tracker.", "inputSchema": {"type": "object"}},
      {"name": "search", "description": "Search the wiki.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    ```json
    {"tools": [
      {"name": "search_issues", "description": "Search the issue tracker.", "inputSchema": {"type": "object"}},
      {"name": "search_wiki", "description": "Search the wiki.", "inputSchema": {"type": "object"}}
    ]}
    ```
    """

    code = "MCP204"
    name = "duplicate-tool-name"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        census = doc.census()
        if len(census.strings("name")) == sum(isinstance(name, str) for name in census.values("name")):
            return  # every name once: most documents
        first_seen = {}
        for ptr, tool in doc.tools():
            name = tool.get("name") if isinstance(tool, dict) else None
            if not isinstance(name, str):
                continue
            if name in first_seen:
                yield Violation(
                    ptr / "name",
                    f"Tool name '{name}' is already used by the tool at {first_seen[name]}",
                    related=((first_seen[name] / "name", "first defined here"),),
                )
            else:
                first_seen[name] = ptr
