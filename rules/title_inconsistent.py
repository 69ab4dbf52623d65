from mcplint import versions
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


class TitleInconsistent(ToolRule):
    """A tool's `title` and `annotations.title` say different things.

    ## Why
    From 2025-06-18 a tool can carry its display name twice: `title` and the older
    `annotations.title`. Clients show `title` first and fall back to
    `annotations.title`, so two different values mean different clients show the
    same tool under different names. Keep one, or make them the same. Differences
    in case and whitespace alone are ignored.

    ## Bad
    ```json protocol=2025-06-18
    {"tools": [{"name": "get_user", "title": "Get User", "annotations": {"title": "Fetch Account"}, "description": "Get a user by id.", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json protocol=2025-06-18
    {"tools": [{"name": "get_user", "title": "Get User", "annotations": {"title": "Get user"}, "description": "Get a user by id.", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP231"
    name = "title-inconsistent"
    checklist = (7,)
    category = "naming"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_06_18)

    def candidates(self, doc, ctx):
        census = doc.census()  # only when tools have both titles
        if "title" not in census.fields or "title" not in census.annotation_keys:
            return []
        return census.with_any({"title"})

    def check_tool(self, ptr, tool, ctx):
        title = tool.get("title")
        annotations = tool.get("annotations")
        other = annotations.get("title") if isinstance(annotations, dict) else None
        if not (isinstance(title, str) and isinstance(other, str)) or not title.strip() or not other.strip():
            return
        if _normal(title) != _normal(other):
            yield Violation(
                ptr / "annotations" / "title",
                f"Tool annotations.title '{other}' differs from title '{title}'; clients show one or "
                "the other, so make them the same or drop annotations.title",
                related=((ptr / "title", "title defined here"),),
            )
