from mcplint.findings import Severity
from mcplint.rule import Option, RuleOptions, ToolRule, Violation


class DescriptionTooLong(ToolRule):
    """A tool description is longer than clients accept or than a model needs.

    ## Why
    Every tool description is sent to the model with every request, so a usage
    manual in the description costs context on every turn and buries the sentence
    that says what the tool does. Some hosts refuse long descriptions outright:
    OpenAI's API rejects a function description over 1024 characters
    (`string_above_max_length`), so a bridge that forwards MCP tools as-is fails on
    the whole request.

    The limit is the `max-chars` option (default 1024). Document parameters in their
    own `description`s rather than repeating them in the tool's description.

    ## Bad
    ```yaml
    tools:
      - name: think
        description: >-
          A tool for dynamic and reflective problem-solving through thoughts. Each
          thought can build on, question, or revise previous insights as understanding
          deepens. When to use this tool: breaking down complex problems into steps;
          planning and design with room for revision; analysis that might need course
          correction; problems where the full scope might not be clear initially;
          problems that require a multi-step solution; tasks that need to maintain
          context over multiple steps; situations where irrelevant information needs
          to be filtered out. Parameters explained: thought is your current thinking
          step; next_thought_needed is true if you need more thinking, even if at what
          seemed like the end; thought_number is the current number in the sequence;
          total_thoughts is the current estimate of thoughts needed; is_revision tells
          whether this thought revises previous thinking; revises_thought says which
          thought is being reconsidered; branch_from_thought is the branching point.
          You should start with an initial estimate of needed thoughts, be ready to
          adjust it, and only stop when you are truly done.
        inputSchema: {type: object}
    ```

    ## Good
    ```json
    {"tools": [{"name": "think", "description": "Record one step of step-by-step reasoning. Call it once per step; a step may revise or branch from an earlier one. Set next_thought_needed to false after the last step.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP213"
    name = "description-too-long"
    checklist = (2,)
    category = "description"
    severity = Severity.WARNING

    class Options(RuleOptions):
        max_chars: int = Option(1024, "Longest tool description, in characters.")

    def candidates(self, doc, ctx):
        limit = ctx.options.max_chars
        return doc.census().with_text("description", lambda text: len(text) > limit and len(text.strip()) > limit)

    def check_tool(self, ptr, tool, ctx):
        text = tool.get("description")
        if not isinstance(text, str):
            return
        length = len(text.strip())
        if length > ctx.options.max_chars:
            yield Violation(
                ptr / "description",
                f"Description is {length:,} characters long (limit {ctx.options.max_chars:,}); keep "
                "what a model needs to choose and call the tool, and move parameter details into "
                "the parameters' own descriptions",
            )
