from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import json_type

# list member -> (what an entry is called, its required members)
_REQUIRED = {"resources": ("Resource", ("uri", "name")),
             "resourceTemplates": ("Resource template", ("uriTemplate", "name"))}


class ResourceFieldMissing(Rule):
    """A resource lacks its `uri` or `name`, or a resource template its `uriTemplate` or `name`, or one is not a string.

    ## Why
    Every version of the schema requires `uri` and `name` (strings) on a Resource, and
    `uriTemplate` and `name` on a ResourceTemplate. The URI is how the client reads the
    resource (`resources/read`), the template how it builds such URIs, and the name is
    what it shows (until 2025-06-18 "a human-readable name", since then an identifier
    that serves as the display name when there is no `title`). Typed clients reject a
    whole resources/list result over one entry without them.

    ## Bad
    ```json
    {"resources": [{"uri": "file:///project/README.md", "mimeType": "text/markdown"},
                   {"name": "changelog", "title": "Changelog"}]}
    ```

    ```json
    {"resourceTemplates": [{"name": "issue", "uri": "issues://{id}"}]}
    ```

    ## Good
    ```json
    {"resources": [{"uri": "file:///project/README.md", "name": "README.md", "mimeType": "text/markdown"}],
     "resourceTemplates": [{"uriTemplate": "issues://{id}", "name": "issue", "title": "Issue by number"}]}
    ```
    """

    code = "MCP245"
    name = "resource-field-missing"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for member, (noun, required) in _REQUIRED.items():
            for ptr, entry in doc.entries(member):
                if not isinstance(entry, dict):
                    continue  # MCP248
                missing = [key for key in required if key not in entry]
                if missing:
                    names = " and ".join(f"'{key}'" for key in missing)
                    hint = " (it has 'uri'; a template's member is 'uriTemplate')" if (
                        "uriTemplate" in missing and isinstance(entry.get("uri"), str)) else ""
                    yield Violation(ptr, f"{noun} has no {names}{hint}; the schema requires "
                                         f"{' and '.join(required)} on every {noun.lower()}")
                for key in required:
                    if key in entry and not isinstance(entry[key], str):
                        yield Violation(ptr / key, f"{noun} {key} must be a string, not {json_type(entry[key])}")
