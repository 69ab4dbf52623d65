from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class CaptureRecordInvalid(TrafficRule):
    """A transcript line or HAR body cannot be read as a message.

    ## Why
    A line that is not JSON (a truncated write, a log line on stdout, a proxy's
    banner), a record whose `from` is neither `client` nor `server`, or an SSE event
    cut off in the middle cannot be checked, and on a real stdio connection it would
    break the client's parser. The rest of the capture is still linted.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}
    Server started on stdio
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {}}}
    ```
    """

    code = "MCP600"
    name = "capture-record-invalid"
    category = "protocol"
    severity = Severity.ERROR
    problems_only = True

    def check_record(self, record, session, ctx):
        if record.problem is not None:
            pointer, message = record.problem
            yield Violation(pointer, message[:1].upper() + message[1:])
