from mcplint.capture.output_rule import OutputRule
from mcplint.capture.outputs import find_stack_trace, is_error_output, may_hold_trace, quoted
from mcplint.findings import Severity
from mcplint.output_purpose import returns_traces
from mcplint.rule import Violation


class ToolOutputStackTrace(OutputRule):
    r"""A successful tool result contains a stack trace.

    ## Why
    A stack trace shows the model and the user the server's file layout, library
    versions and code paths, which helps an attacker and tells the model nothing
    useful about the task. It usually means an exception was caught and its
    traceback returned as if it were the tool's output. Return a short description
    of what went wrong (as an `isError` result) and log the trace on the server.

    Recognised: Python tracebacks, JavaScript (`at fn (file.js:1:2)`), Java and other
    JVM frames, Go goroutine dumps, .NET and Ruby traces. Stack traces in error
    answers (JSON-RPC errors and `isError` results) are reported by the error-message
    rule of checklist item 10, not here. Neither are the results of tools whose name
    says they return a test, CI or other log (`run_tests`, `get_job_logs`,
    `get_workflow_run_logs`, `get_crash_report`): a failing test's traceback is
    their output, not a leak of the server's own code.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "query", "arguments": {"sql": "select 1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "Traceback (most recent call last):\n  File \"/srv/app/db.py\", line 41, in run\n    cursor.execute(sql)\nsqlite3.OperationalError: no such table: users"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "query", "arguments": {"sql": "select 1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "[[1]]"}]}}}
    ```
    """

    code = "MCP423"
    name = "tool-output-stack-trace"
    checklist = (19,)
    category = "security"
    severity = Severity.WARNING
    needs = "tools/call result"

    suspect = staticmethod(may_hold_trace)

    def check_texts(self, exchange, answer, texts):
        if is_error_output(answer):
            return  # checklist item 10's error-message rule judges error texts
        if returns_traces(exchange.tool_name):
            return  # a test or CI log: the traces are what was asked for
        reported: set[str] = set()
        for ptr, what, text in texts:
            found = find_stack_trace(text)
            if found is None or found[1] in reported:
                continue
            reported.add(found[1])
            language, line, at = found
            yield Violation(ptr, f"Tool output ({what}) contains a {language} stack trace ('{quoted(line)}'); "
                                 "return a short error description and log the trace on the server",
                            within=(at, at + len(line)))
