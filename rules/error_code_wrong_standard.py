from mcplint import versions
from mcplint.capture.errors import (INVALID_REQUEST, METHOD_NOT_FOUND, OK, PARSE_ERROR, STANDARD, bad_request_kind,
                                    code_verdict, error_code, is_unknown_method, server_error)
from mcplint.capture.http import request_of
from mcplint.capture.session import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_PENDING = "_mcp715_pending"
_KEEP = 16  # bad stdio lines and their answers kept until paired: bounded whatever the capture holds
_WHAT = {PARSE_ERROR: "text that is not valid JSON",
         INVALID_REQUEST: "valid JSON that is not a valid request"}


class ErrorCodeWrongStandard(TrafficRule):
    """A failure answered with the wrong standard JSON-RPC error code.

    ## Why
    JSON-RPC 2.0, which every MCP message follows, gives each kind of failure its
    own code: -32700 for text that is not JSON, -32600 for JSON that is not a valid
    request (`"method": 1`), -32601 for a method that does not exist. Clients branch
    on them: -32601 tells a client to stop calling a method the server lacks, while
    -32602 (what servers on the 1.x Python SDK send for an unknown method) tells it
    to fix its parameters and retry. Codes outside the standard ones are judged by
    MCP700-MCP704; this rule judges a standard code used for the wrong failure. The
    audit's probes send these failures on purpose; in other captures it judges the
    same failures when the request itself shows them (a body that is not JSON, a
    method in a namespace MCP owns but never defined). A warning, as JSON-RPC names
    the codes without a MUST; an error for an unknown method under 2026-07-28, which
    requires -32601 (404 over HTTP).

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "mcplint/no-such-method", "params": {}}, "probe": "unknown-method"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "Invalid request parameters"}}}
    {"from": "client", "message": null, "probe": "invalid-request"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "mcplint/no-such-method", "params": {}}, "probe": "unknown-method"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32601, "message": "Method not found: mcplint/no-such-method"}}}
    {"from": "client", "message": null, "probe": "invalid-request"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request: method must be a string"}}}
    ```
    """

    code = "MCP715"
    name = "error-code-wrong-standard"
    checklist = (8,)
    category = "protocol"
    severity = Severity.WARNING  # JSON-RPC 2.0 names the codes; 2026-07-28 requires -32601 (error)
    senders = None
    kinds = frozenset({"response"})
    errors_only = True
    transports = frozenset({"stdio"})  # check_record pairs stdio's bad lines with their answers
    needs = "an error answer to an unknown method, malformed JSON or an invalid request"

    def check_record(self, record, session, ctx):
        # Over stdio a bad line gets an id-less answer, in order. A server may also stay silent
        # on one, so the answers are paired with the lines once the client moves on.
        if record.sender != CLIENT or record.http is not None:
            return iter(())
        expected = bad_request_kind(record) if record.message is None else None
        state = getattr(session, _PENDING, None)
        if expected is not None:
            if state is None:
                state = ([], [])
                setattr(session, _PENDING, state)
            if len(state[0]) < _KEEP:
                state[0].append(expected)
            return iter(())
        return self._pair(session, ctx) if state and state[0] else iter(())

    def check_message(self, message, session, ctx):
        error = server_error(message)
        if error is None:
            return
        if message.record.http:
            expected = bad_request_kind(request_of(message.record, session))
            yield from self._judge(message, error, expected, session, ctx)
        elif message.id is None:
            state = getattr(session, _PENDING, None)
            if state and state[0] and len(state[1]) < _KEEP:
                state[1].append((message, error))

    def check_session(self, session, ctx):
        state = getattr(session, _PENDING, None)
        return self._pair(session, ctx) if state and state[0] else iter(())

    def _pair(self, session, ctx):
        """Judge the answers to the bad stdio lines sent since the last real request: in
        order when every line got one; otherwise each by the line it fits, if any."""
        lines, answers = getattr(session, _PENDING)
        setattr(session, _PENDING, None)
        for i, (message, error) in enumerate(answers):
            if len(answers) == len(lines):
                expected = lines[i]
            else:
                code = error_code(error)
                expected = code if code in lines else lines[min(i, len(lines) - 1)]
            yield from self._judge(message, error, expected, session, ctx)

    def check_exchange(self, exchange, session, ctx):
        error = exchange.response.error
        if error is None or not is_unknown_method(exchange.request):
            return
        yield from self._judge(exchange.response, error, METHOD_NOT_FOUND, session, ctx,
                               f"the unknown method {exchange.method!r}")

    def _judge(self, response, error, expected, session, ctx, what=None):
        if expected is None:
            return
        session.assess(self)
        code = error_code(error)
        if code is None or code == expected or code_verdict(code, ctx.version)[0] != OK:
            return  # no integer (MCP700) or a code MCP701-MCP704 judge
        name = STANDARD.get(code)
        given = f"{code} ({name})" if name else str(code)
        required = expected == METHOD_NOT_FOUND and versions.is_stateless(ctx.version)
        yield Violation(response.ptr / "error" / "code",
                        f"{what or _WHAT[expected]} was answered with {given}; JSON-RPC's code for it is "
                        f"{expected} ({STANDARD[expected]})", severity=Severity.ERROR if required else None)
