from mcplint import versions
from mcplint.findings import Severity
from mcplint.intent_census import intending
from mcplint.risk import tool_intent
from mcplint.rule import ToolRule, Violation

_DOES = {"destroy": "destroys or overwrites data", "pay": "moves money", "execute": "runs code or commands",
         "send": "sends or publishes data", "write": "modifies state"}


class DestructiveToolAnnotatedSafe(ToolRule):
    """A tool that looks destructive is annotated as read-only or non-destructive.

    ## Why
    Clients use `readOnlyHint` and `destructiveHint` to decide how much to warn or
    whether to ask for confirmation. A `delete_file` that claims `readOnlyHint: true`
    or `destructiveHint: false` invites the client to run it without asking.

    The effect is read from the verb of the tool's name (`delete_file`, `send_email`,
    `execute_command`, `git_reset`, `transfer_funds`) or, when the name has none,
    from the leading verb of its description ("Permanently deletes ..."). Effect
    words used as nouns do not count: `get_refund_status`, `list_purchase_orders`
    and `get_deploy_status` are reads. Deleting, overwriting, resetting, paying and
    running commands contradict both hints. Sending, posting, uploading and plain
    modifications (write, update, move, commit) only contradict
    `readOnlyHint: true`: the spec defines `destructiveHint: false` as "performs
    only additive updates", which a sent message is (its outward reach is
    `openWorldHint`). Creating and adding are not treated as effects. An effect
    word counts only as a verb: first in the name, or second after a namespace
    (`git_`, `slack_`). A destructive verb on text (`remove_duplicates`,
    `truncate_text`) transforms its input and is not an effect either.

    ## Bad
    ```json
    {"tools": [{"name": "delete_file", "description": "Delete a file.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true}}]}
    ```

    ```json
    {"tools": [{"name": "send_email", "description": "Send an email to a recipient.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true, "openWorldHint": true}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "delete_file", "description": "Delete a file.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": false, "destructiveHint": true}},
               {"name": "send_email", "description": "Send an email to a recipient.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}},
               {"name": "get_refund_status", "description": "Get the status of a refund.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true}}]}
    ```
    """

    code = "MCP410"
    name = "destructive-tool-annotated-safe"
    checklist = (20,)
    category = "security"
    severity = Severity.ERROR
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        census = doc.census()  # only tools claiming readOnlyHint: true or destructiveHint: false
        if not any(value is True for value in census.annotation_values("readOnlyHint")) and \
                not any(value is False for value in census.annotation_values("destructiveHint")):
            return []
        return intending([pair for pair, hints in zip(census.tools, census.column("annotations"))
                          if isinstance(hints, dict)
                          and (hints.get("readOnlyHint") is True or hints.get("destructiveHint") is False)],
                         census.strings("description"))

    def check_tool(self, ptr, tool, ctx):
        annotations = tool.get("annotations")
        if not isinstance(annotations, dict):
            return
        intent = tool_intent(tool.get("name"), tool.get("description"))
        if intent is None:
            return
        source = f"its {intent.source} ('{intent.verb}')"
        if annotations.get("readOnlyHint") is True:
            yield Violation(
                ptr / "annotations" / "readOnlyHint",
                f"Tool claims readOnlyHint: true, but {source} says it {_DOES[intent.effect]}; "
                "set readOnlyHint: false",
            )
        elif intent.destructive and annotations.get("destructiveHint") is False:
            yield Violation(
                ptr / "annotations" / "destructiveHint",
                f"Tool claims destructiveHint: false, but {source} says it {_DOES[intent.effect]}; "
                "set destructiveHint: true so clients ask for confirmation",
            )
