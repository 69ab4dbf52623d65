from mcplint.capture.content import parsed_text
from mcplint.capture.errors import is_plain_success
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.schemas import name_tokens

# The members a bare failure object holds besides its error: {"error": "..."} or
# {"success": false, "error": "...", "code": 404}.
_FAILURE_MEMBERS = frozenset("error message code details detail status success ok reason".split())
# Tools whose answer is a verdict: a failed check is what they report, not how they failed.
_CHECKS = frozenset("check test validate verify ping health is has can lint diagnose probe".split())


class ToolFailureNotFlagged(TrafficRule):
    """A tools/call result says the tool failed, in its own data, but is not flagged `isError`.

    ## Why
    A tool's own failure (a file that is not there, an upstream API refusing) belongs in
    the result with `isError: true` (ERR-03, RES-08): clients and models read the flag to
    tell a failure from an answer, and retry or correct themselves. A result whose
    structured content (inside FastMCP's `{"result": ...}` wrapper, when that is all
    it holds), or whose one text block holding a JSON object, says
    `"success": false` or `"ok": false`, or is nothing but an error object
    (`{"error": "Document report.docx does not exist"}`), is a failure dressed as a
    success. Failures told only in prose are not judged: prose that reads like a failure
    may be a correct answer ("no documents found"); nor are tools whose answer is a verdict
    (`check_connection`, `validate_config`: a failed check is their result).

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_paragraphs", "inputSchema": {"type": "object", "properties": {"filename": {"type": "string"}}}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_paragraphs", "arguments": {"filename": "report.docx"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "{\\"success\\": false, \\"error\\": \\"Document report.docx does not exist\\"}"}], "isError": false}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_paragraphs", "inputSchema": {"type": "object", "properties": {"filename": {"type": "string"}}}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_paragraphs", "arguments": {"filename": "report.docx"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Document report.docx does not exist"}], "isError": true}}}
    ```
    """

    code = "MCP714"
    name = "tool-failure-not-flagged"
    checklist = (9,)
    category = "protocol"
    severity = Severity.WARNING
    needs = "tools/call result whose data reports a failure"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call":
            return
        response = exchange.response
        result = response.result
        if not is_plain_success(result):
            return
        name = exchange.tool_name
        if not isinstance(name, str) or not _CHECKS.isdisjoint(name_tokens(name)[:1]):
            return  # a check's "ok": false is its answer (check_connection, validate_config)
        where, value = _data(result)
        why = _failure(value)
        if why is None:
            return
        session.assess(self)  # (a success that says nothing of failure shows nothing about errors)
        at = response.ptr / "result"
        for token in where:
            at = at / token
        yield Violation(at, f"the result of {name!r} says it failed ({why}) but is not flagged isError: true; set "
                        "isError so clients and the model tell the failure from an answer")


def _data(result: dict) -> tuple[tuple, object]:
    """The result's own data: its structuredContent, else its one text block parsed as JSON.
    A structuredContent of one member "result" holding an object is that object: FastMCP wraps
    a tool's return value so (`{"result": {"error": "..."}}`)."""
    structured = result.get("structuredContent")
    if isinstance(structured, dict):
        if len(structured) == 1 and isinstance(structured.get("result"), dict):
            return ("structuredContent", "result"), structured["result"]
        return ("structuredContent",), structured
    content = result.get("content")
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        text = content[0].get("text")
        if isinstance(text, str) and text.lstrip()[:1] == "{" and len(text) <= 1_000_000:
            ok, value = parsed_text(text)
            if ok:
                return ("content", 0), value
    return (), None


def _failure(value) -> str | None:
    if not isinstance(value, dict):
        return None
    for flag in ("success", "ok"):
        if value.get(flag) is False:
            return f'"{flag}": false'
    error = value.get("error")
    if error and isinstance(error, (str, dict)) and _FAILURE_MEMBERS.issuperset(value):
        return "nothing but an error object"
    return None
