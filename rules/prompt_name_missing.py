from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type


class PromptNameMissing(Rule):
    """A prompt has no name, an empty name, or a name that is not a string.

    ## Why
    `name` is the one required member of a Prompt in every version of the schema, and
    it is how a client asks for the prompt (`prompts/get` with `name`). A prompt
    without a usable name cannot be fetched, and typed clients reject the whole
    prompts/list result over it.

    ## Bad
    ```json
    {"prompts": [{"description": "Summarise a text in one paragraph.",
                  "arguments": [{"name": "text", "required": true}]},
                 {"name": "", "description": "Review a diff."}]}
    ```

    ## Good
    ```json
    {"prompts": [{"name": "summarize_text", "description": "Summarise a text in one paragraph.",
                  "arguments": [{"name": "text", "required": true}]}]}
    ```
    """

    code = "MCP241"
    name = "prompt-name-missing"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for ptr, prompt in doc.prompts():
            if not isinstance(prompt, dict):
                continue  # MCP248
            if "name" not in prompt:
                yield Violation(ptr, "Prompt has no 'name'; clients fetch a prompt by its name (prompts/get)")
            elif not isinstance(prompt["name"], str):
                yield Violation(ptr / "name", f"Prompt name must be a string, not {json_type(prompt['name'])}")
            elif not prompt["name"].strip():
                yield Violation(ptr / "name", "Prompt name is empty; give the prompt a name to fetch it by")
