from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type


class PromptArgumentNameInvalid(Rule):
    """A prompt argument has no name, an empty or non-string name, or the name of another argument of the prompt.

    ## Why
    `name` is required on every PromptArgument in every version of the schema. The
    client passes argument values in `prompts/get` as `arguments`, an object keyed by
    argument name, so an argument without a name cannot be given a value, and two
    arguments with one name cannot be told apart: only one value reaches the server.

    ## Bad
    ```json
    {"prompts": [{"name": "translate", "description": "Translate a text.",
                  "arguments": [{"name": "text", "required": true}, {"description": "Target language"},
                                {"name": "text", "description": "Source language"}]}]}
    ```

    ## Good
    ```json
    {"prompts": [{"name": "translate", "description": "Translate a text.",
                  "arguments": [{"name": "text", "required": true}, {"name": "target_language"},
                                {"name": "source_language", "description": "Source language"}]}]}
    ```
    """

    code = "MCP244"
    name = "prompt-argument-name-invalid"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for ptr, prompt in doc.prompts():
            arguments = prompt.get("arguments") if isinstance(prompt, dict) else None
            if not isinstance(arguments, list):
                continue  # MCP249
            first_seen = {}
            for index, argument in enumerate(arguments):
                here = ptr / "arguments" / index
                if not isinstance(argument, dict):
                    continue  # MCP248
                name = argument.get("name")
                if "name" not in argument:
                    yield Violation(here, f"Prompt argument {index} has no 'name'; "
                                          "clients pass argument values by name")
                elif not isinstance(name, str):
                    yield Violation(here / "name", f"Prompt argument name must be a string, not {json_type(name)}")
                elif not name.strip():
                    yield Violation(here / "name", "Prompt argument name is empty; name the argument")
                elif name in first_seen:
                    yield Violation(
                        here / "name",
                        f"Prompt argument '{name}' is already defined at {first_seen[name]}; "
                        "arguments are passed by name, so give each its own",
                        related=((first_seen[name] / "name", "first defined here"),),
                    )
                else:
                    first_seen[name] = here
