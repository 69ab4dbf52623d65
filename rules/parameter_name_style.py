from functools import lru_cache
from typing import Literal

from mcplint.document.manifest import property_schemas
from mcplint.findings import Severity
from mcplint.identifiers import matches_style, to_style
from mcplint.rule import Option, RuleOptions, ToolRule, Violation
from mcplint.schemas import input_schemas


class ParameterNameStyle(ToolRule):
    """A parameter name is not written in the project's naming style (snake_case by default).

    ## Why
    The checklist asks for snake_case names for tools and their parameters, so that
    arguments look the same across every tool a model sees (`repo_path`, not a mix
    of `repoPath`, `repo-path` and `RepoPath`). Pick another convention with the
    `style` option (camelCase is common in TypeScript servers), or `any` to turn the
    check off.

    Every key of `properties` is checked, including nested objects and array
    `items`. Leading underscores are ignored (`_id`). Only `inputSchema` is checked:
    `outputSchema` property names describe results, not parameters.

    ## Bad
    ```json
    {"tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": {
      "type": "object",
      "properties": {"filePath": {"type": "string"}, "max-lines": {"type": "integer"}}
    }}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": {
      "type": "object",
      "properties": {"file_path": {"type": "string"}, "max_lines": {"type": "integer"}}
    }}]}
    ```
    """

    code = "MCP203"
    name = "parameter-name-style"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING

    class Options(RuleOptions):
        style: Literal["snake_case", "camelCase", "kebab-case", "any"] = Option(
            "snake_case", "Naming style for parameter names: snake_case, camelCase, kebab-case or any."
        )

    def candidates(self, doc, ctx):
        style = ctx.options.style
        if style == "any":
            return []
        # The names the shared schema walk saw (those property_schemas lists), each distinct one judged once.
        entries = input_schemas(doc)
        names = set().union(*{id(e.facts): e.facts.names for e in entries}.values())  # (schemas share facts)
        odd = {name for name in names if _problem(name, style) is not None}
        return [(e.tool_ptr, e.tool) for e in entries if not odd.isdisjoint(e.facts.names)] if odd else []

    def check_tool(self, ptr, tool, ctx):
        style = ctx.options.style
        if style == "any":
            return
        for index, (name, _) in enumerate(property_schemas(tool.get("inputSchema"))):
            message = _problem(name, style)
            if message is not None:  # the pointers, in the same order, only for a finding
                yield Violation(ctx.doc.parameters(ptr, tool)[index][0], message, at_key=True)


@lru_cache(maxsize=4096)  # parameter names repeat across the tools of a server
def _problem(name: str, style: str) -> str | None:
    bare = name.lstrip("_")
    if not bare or matches_style(bare, style):
        return None
    suggestion = to_style(bare, style)
    if matches_style(suggestion, style):
        hint = f"rename it to '{name[: len(name) - len(bare)]}{suggestion}'"
    else:
        hint = f"rename it in {style}"
    return f"Parameter name '{name}' is not {style}; {hint}"
