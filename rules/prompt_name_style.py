from typing import Literal

from mcplint.findings import Severity
from mcplint.listing_checks import style_hint
from mcplint.rule import Option, Rule, RuleOptions, Violation


class PromptNameStyle(Rule):
    """A prompt name is not written in the project's naming style (snake_case by default).

    ## Why
    A prompt is fetched by its name (`prompts/get`), and from 2025-06-18 the schema
    says the name is "intended for programmatic or logical use", with `title` for
    display. The checklist asks for snake_case identifiers (item 1, written for tool
    names); prompt names are identifiers of the same server, so they follow the same
    convention. Pick another with the `style` option, or `any` to turn the check off.

    A dotted namespace prefix is allowed, as for tool names: each dot-separated
    segment is checked on its own. Missing or empty names are reported by MCP241.

    ## Bad
    ```json
    {"prompts": [
      {"name": "summarizeText", "description": "Summarise a text in one paragraph."},
      {"name": "code-review", "description": "Review a diff for bugs and style problems."}
    ]}
    ```

    ## Good
    ```json
    {"prompts": [
      {"name": "summarize_text", "title": "Summarize text", "description": "Summarise a text in one paragraph."},
      {"name": "git.code_review", "title": "Code review", "description": "Review a diff for bugs and style problems."}
    ]}
    ```
    """

    code = "MCP240"
    name = "prompt-name-style"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING

    class Options(RuleOptions):
        style: Literal["snake_case", "camelCase", "kebab-case", "any"] = Option(
            "snake_case", "Naming style for prompt names: snake_case, camelCase, kebab-case or any."
        )

    def check(self, doc, ctx):
        style = ctx.options.style
        if style == "any":
            return
        for ptr, prompt in doc.prompts():
            name = prompt.get("name") if isinstance(prompt, dict) else None
            if not isinstance(name, str) or not name.strip():
                continue
            hint = style_hint(name, style, dotted=True)
            if hint is not None:
                yield Violation(ptr / "name", f"Prompt name '{name}' is not {style}; {hint}")
