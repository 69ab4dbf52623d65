from mcplint.findings import Severity
from mcplint.listing_checks import ERROR, uri_problem, uri_template_problem
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import show


class ResourceUriInvalid(Rule):
    """A resource's `uri` is not a URI, or a resource template's `uriTemplate` is not an RFC 6570 URI template.

    ## Why
    In every version's schema a Resource's `uri` has the format `uri` (an absolute
    URI, RFC 3986: a scheme, then the rest), and a ResourceTemplate's `uriTemplate`
    the format `uri-template` (RFC 6570). A relative path (`notes/todo.md`,
    `/etc/hosts`) or an empty string has no scheme, so it is no URI at all: clients
    that parse resource URIs as URLs (the 1.x Python SDK did) reject the whole
    listing. That is an error, as are a template whose braces do not balance and one
    that can only expand to relative references. Characters a URI cannot hold
    (spaces, backslashes, non-ASCII letters) and variable names RFC 6570 does not
    allow (`{user-id}`) are warnings: many clients encode or accept them, not all do.

    ## Bad
    ```json
    {"resources": [{"uri": "notes/todo.md", "name": "todo"},
                   {"uri": "file:///home/ada/My Notes.md", "name": "My Notes.md"}],
     "resourceTemplates": [{"uriTemplate": "issues://{id", "name": "issue"}]}
    ```

    ## Good
    ```json
    {"resources": [{"uri": "file:///home/ada/todo.md", "name": "todo"},
                   {"uri": "file:///home/ada/My%20Notes.md", "name": "My Notes.md"},
                   {"uri": "memory://knowledge-graph", "name": "knowledge_graph"}],
     "resourceTemplates": [{"uriTemplate": "issues://{owner}/{repo}/{id}", "name": "issue"},
                           {"uriTemplate": "file:///{+path}", "name": "file"},
                           {"uriTemplate": "search://docs{?query,limit}", "name": "search"}]}
    ```
    """

    code = "MCP246"
    name = "resource-uri-invalid"
    category = "protocol"
    severity = Severity.ERROR

    def check(self, doc, ctx):
        for member, key, check, noun in (("resources", "uri", uri_problem, "Resource uri"),
                                         ("resourceTemplates", "uriTemplate", uri_template_problem,
                                          "Resource template uriTemplate")):
            for ptr, entry in doc.entries(member):
                value = entry.get(key) if isinstance(entry, dict) else None
                if not isinstance(value, str):
                    continue  # MCP245
                found = check(value)
                if found is not None:
                    level, why = found
                    yield Violation(ptr / key, f"{noun} {show(value)} {why}",
                                    severity=None if level == ERROR else Severity.WARNING)
