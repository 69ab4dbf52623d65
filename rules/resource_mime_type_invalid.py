from mcplint.capture.media import mime_problem
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation


class ResourceMimeTypeInvalid(Rule):
    """A resource's or resource template's `mimeType` is not a MIME type.

    ## Why
    `mimeType` on a Resource is "the MIME type of this resource", and on a
    ResourceTemplate the type of every resource it matches. Clients choose how to
    show or parse a resource by it, before reading it. A value that is not
    `type/subtype` (`"markdown"`, `"JSON file"`) or the unregistered `image/jpg` makes
    them guess, refuse it, or show it as raw bytes. The same check as MCP728 makes on
    content blocks; parameters such as `; charset=utf-8` are fine.

    ## Bad
    ```json
    {"resources": [{"uri": "file:///project/README.md", "name": "README.md", "mimeType": "markdown"}],
     "resourceTemplates": [{"uriTemplate": "photos://{id}", "name": "photo", "mimeType": "image/jpg"}]}
    ```

    ## Good
    ```json
    {"resources": [{"uri": "file:///project/README.md", "name": "README.md",
                    "mimeType": "text/markdown; charset=utf-8"},
                   {"uri": "ui://widget/chart.html", "name": "chart", "mimeType": "text/html;profile=mcp-app"}],
     "resourceTemplates": [{"uriTemplate": "photos://{id}", "name": "photo", "mimeType": "image/jpeg"}]}
    ```
    """

    code = "MCP247"
    name = "resource-mime-type-invalid"
    category = "protocol"
    severity = Severity.WARNING

    def check(self, doc, ctx):
        for member, noun in (("resources", "Resource"), ("resourceTemplates", "Resource template")):
            for ptr, entry in doc.entries(member):
                mime = entry.get("mimeType") if isinstance(entry, dict) else None
                if isinstance(mime, str):  # other types: MCP249
                    problem = mime_problem(mime)
                    if problem:
                        yield Violation(ptr / "mimeType", f"{noun} mimeType {problem}")
