from typing import Literal

from mcplint.findings import Severity
from mcplint.listing_checks import style_hint
from mcplint.rule import Option, Rule, RuleOptions, Violation


class PromptArgumentNameStyle(Rule):
    """A prompt argument name is not written in the project's naming style (snake_case by default).

    ## Why
    Prompt arguments are passed by name (`prompts/get` takes `arguments`, a map from
    argument name to value), like a tool's parameters. The checklist asks for
    snake_case names for tools and their parameters (item 1), so that a model sees one
    convention across the server; prompt arguments follow it too. Pick another with
    the `style` option, or `any` to turn the check off. Leading underscores are
    ignored (`_id`), as for parameter names.

    ## Bad
    ```json
    {"prompts": [{"name": "review_code", "description": "Review a diff.",
                  "arguments": [{"name": "pullRequest", "required": true}, {"name": "focus-area"}]}]}
    ```

    ## Good
    ```json
    {"prompts": [{"name": "review_code", "description": "Review a diff.",
                  "arguments": [{"name": "pull_request", "required": true}, {"name": "focus_area"}]}]}
    ```
    """

    code = "MCP243"
    name = "prompt-argument-name-style"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING

    class Options(RuleOptions):
        style: Literal["snake_case", "camelCase", "kebab-case", "any"] = Option(
            "snake_case", "Naming style for prompt argument names: snake_case, camelCase, kebab-case or any."
        )

    def check(self, doc, ctx):
        style = ctx.options.style
        if style == "any":
            return
        for ptr, prompt in doc.prompts():
            arguments = prompt.get("arguments") if isinstance(prompt, dict) else None
            if not isinstance(arguments, list):
                continue
            for index, argument in enumerate(arguments):
                name = argument.get("name") if isinstance(argument, dict) else None
                if not isinstance(name, str) or not name.strip():
                    continue
                hint = style_hint(name, style, dotted=False)
                if hint is not None:
                    yield Violation(ptr / "arguments" / index / "name",
                                    f"Prompt argument name '{name}' is not {style}; {hint}")
