from typing import Literal

from mcplint.findings import Severity
from mcplint.identifiers import dotted_style, matches_style, to_style
from mcplint.rule import Option, RuleOptions, ToolRule, Violation


class ToolNameStyle(ToolRule):
    """A tool name is not written in the project's naming style (snake_case by default).

    ## Why
    Consistent, predictable names make tools easier for models to pick and for people
    to read in logs and approval prompts. The checklist asks for snake_case
    (`get_user`, `list_s3_buckets`); other styles can be chosen with the `style`
    option, or `any` to turn the style check off.

    A dotted namespace prefix is allowed: each dot-separated segment is checked on
    its own, so `github.create_issue` is snake_case. Characters the protocol forbids
    are reported by MCP205, and empty names by MCP201.

    ## Bad
    ```json
    {"tools": [
      {"name": "getUser", "description": "Get a user by id.", "inputSchema": {"type": "object"}},
      {"name": "list-repos", "description": "List the repositories of a user.", "inputSchema": {"type": "object"}}
    ]}
    ```

    ## Good
    ```json
    {"tools": [
      {"name": "get_user", "description": "Get a user by id.", "inputSchema": {"type": "object"}},
      {"name": "github.list_repos", "description": "List the repositories of a user.", "inputSchema": {"type": "object"}}
    ]}
    ```
    """

    code = "MCP202"
    name = "tool-name-style"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING

    class Options(RuleOptions):
        style: Literal["snake_case", "camelCase", "kebab-case", "any"] = Option(
            "snake_case", "Naming style for tool names: snake_case, camelCase, kebab-case or any."
        )

    def candidates(self, doc, ctx):
        style = ctx.options.style
        if style == "any":
            return []
        fits = dotted_style(style)  # one match per distinct name instead of one per segment
        census = doc.census()
        return census.holding("name", {name for name in census.strings("name") if fits(name) is None and name.strip()})

    def check_tool(self, ptr, tool, ctx):
        style = ctx.options.style
        name = tool.get("name")
        if style == "any" or not isinstance(name, str) or not name.strip():
            return
        segments = name.split(".")
        if all(matches_style(segment, style) for segment in segments):
            return
        suggestion = ".".join(to_style(segment, style) for segment in segments)
        if all(matches_style(segment, style) for segment in suggestion.split(".")):
            hint = f"rename it to '{suggestion}'"
        else:
            hint = f"rename it in {style}"
        yield Violation(ptr / "name", f"Tool name '{name}' is not {style}; {hint}")
