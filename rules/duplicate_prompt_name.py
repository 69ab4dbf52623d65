from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class DuplicatePromptName(Rule):
    """Two prompts in one listing have the same name.

    ## Why
    A client fetches a prompt by its name alone (`prompts/get` takes `name`, "the name
    of the prompt or prompt template"), so names identify prompts within a server.
    With a duplicate, only one of the prompts can ever be fetched, and clients that
    key their prompt menus by name show one and hide the other.

    ## Bad
    ```json
    {"prompts": [
      {"name": "summarize", "description": "Summarise an issue thread."},
      {"name": "summarize", "description": "Summarise a wiki page."}
    ]}
    ```

    ## Good
    ```json
    {"prompts": [
      {"name": "summarize_issue", "description": "Summarise an issue thread."},
      {"name": "summarize_page", "description": "Summarise a wiki page."}
    ]}
    ```
    """

    code = "MCP242"
    name = "duplicate-prompt-name"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        first_seen = {}
        for ptr, prompt in doc.prompts():
            name = prompt.get("name") if isinstance(prompt, dict) else None
            if not isinstance(name, str):
                continue
            if name in first_seen:
                yield Violation(
                    ptr / "name",
                    f"Prompt name '{name}' is already used by the prompt at {first_seen[name]}; "
                    "give each prompt its own name",
                    related=((first_seen[name] / "name", "first defined here"),),
                )
            else:
                first_seen[name] = ptr
