from mcplint.capture.outputs import quoted
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class StdoutNotMessage(TrafficRule):
    """A stdio server wrote text that is not a JSON-RPC message to its standard output.

    ## Why
    Over stdio, standard output is the protocol channel: "The server MUST NOT write
    anything to its stdout that is not a valid MCP message" (Transports, every
    version). A start-up banner or a `print` there reaches the client's JSON parser;
    some clients log an error and go on, others drop the connection. Write logs to
    standard error. Reported once per capture, on the first such line, with the count.
    `mcplint audit` records such lines (up to a bound) and carries on; transcripts
    from other tools hold them as `{"from": "server", "message": null, "raw": "..."}`.

    ## Bad
    ```jsonl
    {"from": "server", "message": null, "raw": "Code Runner MCP Server running on stdio"}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {}}}
    ```
    """

    code = "MCP617"
    name = "stdout-not-message"
    category = "protocol"
    severity = Severity.ERROR
    senders = frozenset({"server"})
    transports = frozenset({"stdio"})  # over HTTP such a body is an error page (MCP717, MCP718)

    def check_record(self, record, session, ctx):
        if record.message is None and record.raw_body is not None and not record.http:
            state = session.__dict__.setdefault("_mcp617", [0, None, ""])
            state[0] += 1
            if state[1] is None:
                state[1], state[2] = record.line_pointer / "raw", record.raw_body
        return ()

    def check_session(self, session, ctx):
        count, pointer, first = getattr(session, "_mcp617", (0, None, ""))
        if count:
            what = "a line that is not a JSON-RPC message" if count == 1 else \
                f"{count} lines that are not JSON-RPC messages"
            yield Violation(pointer, (
                f"The server wrote {what} to its standard output ({'the first here: ' if count > 1 else ''}"
                f"{quoted(first, 80)!r}); a stdio server must write only MCP messages to stdout: write logs to stderr"
            ))
