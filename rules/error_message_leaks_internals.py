from mcplint.capture.error_texts import client_strings, leak_at, strings_in, text_blocks
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ErrorMessageLeaksInternals(TrafficRule):
    r"""An error message shows a stack trace or a server-internal file path.

    ## Why
    Error texts travel to the client, into the model's context and often into logs and
    chat transcripts. A stack trace or a path such as `/home/deploy/app/server.py`
    tells an attacker the server's layout, language and library versions, and tells
    the user nothing they can act on. Log the details on the server and send a short
    message that says what failed. A path the client itself sent (a file it asked for)
    is not a leak, nor is the standard install location of a program the server looked
    for (`/usr/bin/git`, `/opt/google/chrome/chrome`): an install hint, not the server's
    own files.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "run_query", "arguments": {"sql": "SELEC 1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "Traceback (most recent call last):\n  File \"/home/deploy/app/db.py\", line 41, in run\nsqlite3.OperationalError: near \"SELEC\": syntax error"}], "isError": true}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "run_query", "arguments": {"sql": "SELEC 1"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "SQL syntax error near \"SELEC\"; check the query and retry"}], "isError": true}}}
    ```
    """

    code = "MCP710"
    errors_only = True  # check_exchange: failed calls only
    name = "error-message-leaks-internals"
    checklist = (10,)
    category = "security"
    severity = Severity.WARNING
    needs = "JSON-RPC error response or isError tool result"

    def check_exchange(self, exchange, session, ctx):
        response = exchange.response
        if response.sender != "server":
            return
        error = response.error
        result = response.result
        if error is not None:
            texts = []
            if isinstance(error.get("message"), str):
                texts.append((response.ptr / "error" / "message", error["message"]))
            if "data" in error:
                base = response.ptr / "error" / "data"
                for path, text in strings_in(error["data"]):
                    pointer = base
                    for token in path:
                        pointer = pointer / token
                    texts.append((pointer, text))
        elif result is not None and result.get("isError") is True:
            texts = [(response.ptr / "result" / "content" / i / "text", t) for i, t in text_blocks(result)]
        else:
            return
        session.assess(self)
        sent = None
        for pointer, text in texts:
            if sent is None:
                sent = client_strings(exchange.request.params)
            leak = leak_at(text, sent)
            if leak:
                yield Violation(pointer, f"error text shows {leak[0]}; log details on the server and tell the "
                                         "client only what failed", within=leak[1:])
