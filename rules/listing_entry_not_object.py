from mcplint.document.listing import METHODS, NOUNS
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type


class ListingEntryNotObject(Rule):
    """A prompts, resources or resourceTemplates list is missing or not an array, or has an entry that is not an object.

    ## Why
    A prompts/list result carries `prompts`, an array of Prompt objects; resources/list
    `resources`, an array of Resource objects; resources/templates/list
    `resourceTemplates`, an array of ResourceTemplate objects; and a prompt's
    `arguments` is an array of PromptArgument objects. This holds in every version of
    the schema, and the array is required in its result even when it is empty (a
    captured prompts/list result without `prompts` is reported too). A client that
    gets a string or `null` in their place cannot list anything, and typed clients
    reject the whole result over one such entry. (For `tools`, MCP102 reports the
    same.)

    ## Bad
    ```json
    {"prompts": [{"name": "summarize", "arguments": ["text"]}]}
    ```

    ## Good
    ```json
    {"prompts": [{"name": "summarize", "arguments": [{"name": "text", "required": true}]}]}
    ```
    """

    code = "MCP248"
    name = "listing-entry-not-object"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for member in ("prompts", "resources", "resourceTemplates"):
            ptr = doc.lists.get(member)
            if ptr is None:
                continue
            value = doc.list_value(member)
            noun = NOUNS[member]
            if value is None and ptr[-1] not in doc.value_at(ptr.parent):
                yield Violation(ptr.parent, f"The {METHODS[member]} result has no '{member}'; "
                                            f"it must carry '{member}', an array of {noun} objects (empty if none)")
                continue
            if not isinstance(value, list):
                yield Violation(ptr, f"'{member}' must be an array of {noun} objects, not {_a(value)}")
                continue
            for entry_ptr, entry in doc.entries(member):
                if not isinstance(entry, dict):
                    yield Violation(entry_ptr, f"Entry {entry_ptr[-1]} of '{member}' is {_a(entry)}, "
                                               f"not a {noun} object")
                elif member == "prompts" and isinstance(entry.get("arguments"), list):
                    for index, argument in enumerate(entry["arguments"]):
                        if not isinstance(argument, dict):
                            yield Violation(entry_ptr / "arguments" / index,
                                            f"Prompt argument {index} is {_a(argument)}, not an object "
                                            "with a 'name'")


def _a(value) -> str:
    """The JSON type of ``value`` with its article: "a string", "an array", "null"."""
    kind = json_type(value)
    return kind if kind == "null" else f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
