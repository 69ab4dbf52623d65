from mcplint import versions
from mcplint.capture.content import annotation_problems, at
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type
from mcplint.versions import V2025_06_18, V2025_11_25

_SINCE_TITLE = versions.since(V2025_06_18)  # title and _meta came with BaseMetadata
_SINCE_ICONS = versions.since(V2025_11_25)
_COMMON = {"description": ("string", versions.ALL), "title": ("string", _SINCE_TITLE),
           "_meta": ("object", _SINCE_TITLE), "icons": ("array", _SINCE_ICONS)}
# list member -> (what an entry is called, member -> (JSON type, versions whose schema defines it)).
# Required members (name, uri, uriTemplate) are MCP241/MCP245's, `arguments` entries MCP244/MCP248's.
_FIELDS = {
    "prompts": ("Prompt", {**_COMMON, "arguments": ("array", versions.ALL)}),
    "resources": ("Resource", {**_COMMON, "mimeType": ("string", versions.ALL), "size": ("integer", versions.ALL),
                               "annotations": ("object", versions.ALL)}),
    "resourceTemplates": ("Resource template", {**_COMMON, "mimeType": ("string", versions.ALL),
                                                "annotations": ("object", versions.ALL)}),
}
_ARGUMENT_FIELDS = {"description": ("string", versions.ALL), "title": ("string", _SINCE_TITLE),
                    "required": ("boolean", versions.ALL)}


class ListingFieldTypeInvalid(Rule):
    """A prompt's, prompt argument's, resource's or resource template's member has the wrong JSON type.

    ## Why
    The schema types every member: `description`, `title` and `mimeType` are strings,
    a resource's `size` an integer (bytes), `arguments` and `icons` arrays, `_meta`
    an object, a prompt argument's `required` a boolean, and `annotations` an object
    whose `audience` holds `"user"`/`"assistant"` and whose `priority` is a number
    from 0 to 1. Typed clients reject a whole listing over one mistyped member.
    Members are checked only in the versions whose schema defines them (`title` and
    `_meta` from 2025-06-18, `icons` from 2025-11-25).

    ## Bad
    ```json protocol=2025-06-18
    {"resources": [{"uri": "file:///project/logo.png", "name": "logo.png", "size": "12 KB",
                    "annotations": {"audience": "user", "priority": 5}}],
     "prompts": [{"name": "summarize", "description": ["Summarise a text."],
                  "arguments": [{"name": "text", "required": "yes"}]}]}
    ```

    ## Good
    ```json protocol=2025-06-18
    {"resources": [{"uri": "file:///project/logo.png", "name": "logo.png", "size": 12288, "mimeType": "image/png",
                    "annotations": {"audience": ["user"], "priority": 0.5}}],
     "prompts": [{"name": "summarize", "title": "Summarize", "description": "Summarise a text.",
                  "arguments": [{"name": "text", "title": "Text", "required": true}]}]}
    ```
    """

    code = "MCP249"
    name = "listing-field-type-invalid"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        version = ctx.version
        for member, (noun, fields) in _FIELDS.items():
            for ptr, entry in doc.entries(member):
                if not isinstance(entry, dict):
                    continue  # MCP248
                yield from _typed(ptr, entry, fields, noun, version)
                if "annotations" in fields and isinstance(entry.get("annotations"), dict):
                    for path, message in annotation_problems(entry["annotations"], version):
                        yield Violation(at(ptr / "annotations", path),
                                        f"{noun} annotations: {message[:1].lower()}{message[1:]}")
                arguments = entry.get("arguments") if member == "prompts" else None
                if isinstance(arguments, list):
                    for index, argument in enumerate(arguments):
                        if isinstance(argument, dict):
                            yield from _typed(ptr / "arguments" / index, argument, _ARGUMENT_FIELDS,
                                              "Prompt argument", version)


def _typed(ptr, entry, fields, noun, version):
    for key, (kind, defined) in fields.items():
        if key not in entry or version not in defined:
            continue
        value = entry[key]
        found = json_type(value)
        if found == "number" and kind == "integer" and float(value).is_integer():
            continue  # 12288.0 is an integer to JSON Schema
        if found != kind:
            article = "an" if kind[0] in "aeiou" else "a"
            yield Violation(ptr / key, f"{noun} {key} must be {article} {kind}, not {found}")
