from mcplint.capture.argument_check import validator_for
from mcplint.capture.errors import is_error_result, is_plain_success
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.schema_dialects import show
from mcplint.schema_safety import EXPANDS, EXTERNAL_REF, Uncheckable, first_report

_STATE = "_MCP713_validators"  # on the session: tool name -> (inputSchema object, validator)
_UNCHECKED = "_MCP713_unchecked"  # on the session: (tool name, schema path) already reported
# On the session: tool name -> the isError texts calls with valid arguments got, and the isError
# texts invalid arguments got. A server that cannot reach its backend fails every call alike
# (grafana: "connection refused" whatever the arguments): a rejection shows validation only when
# valid arguments did not get the same answer, which may come later in the session.
_VALID_FAILED = "_MCP713_valid_failed"
_REJECTED = "_MCP713_rejected"
_JUDGED = "_MCP713_judged"  # tool name -> isError answers whose arguments were judged (a sample is enough)
_MAX_KEPT = 256
_MAX_JUDGED = 32


class InvalidArgumentsAccepted(TrafficRule):
    """A tools/call whose arguments violate the tool's `inputSchema` is answered with a plain success.

    ## Why
    Servers must validate tool inputs. A server that runs a tool with a string where
    its own schema asks for a number, or without a required argument, relies on
    whatever the code does with the bad value: a wrong answer presented as a right
    one, a crash further down, or an injection path. The calls are judged against the
    schema the server published in tools/list (its `$schema` dialect, draft-07 when
    declared, else 2020-12); an `isError` result or a -32602 error shows the server
    validates. Coercion ("5" accepted for an integer) is reported too: the schema is
    the contract the client was given. An `isError` answer that calls with valid
    arguments got too (a backend the server cannot reach fails them all alike) shows
    nothing: the checklist item is then not counted as assessed.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get-sum", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-sum", "arguments": {"a": "two", "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "The sum of two and 3 is two3."}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get-sum", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-sum", "arguments": {"a": "two", "b": 3}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "Invalid arguments for tool get-sum: expected number, received string at a"}], "isError": true}}}
    ```
    """

    code = "MCP713"
    name = "invalid-arguments-accepted"
    checklist = (16,)
    category = "security"
    severity = Severity.WARNING
    needs = "tools/call with invalid arguments or a rejected call"

    def check_exchange(self, exchange, session, ctx):
        if exchange.method != "tools/call" or exchange.tool is None:
            return
        response = exchange.response
        result = response.result
        if result is None:
            error = response.error
            if error is not None and error.get("code") == -32602:
                session.assess(self)  # the server rejected arguments: it validates
            return
        if is_error_result(result):
            self._note_rejection(exchange, session, ctx, result)
            return
        if not is_plain_success(result):
            return  # 2026-07-28 input_required / task results are not an answer yet
        tool_ptr, tool = exchange.tool
        validator = _validator(session, exchange.tool_name, tool, ctx.version)
        if validator is None:
            return
        arguments = exchange.request.params.get("arguments", {})
        try:
            verdict = validator.valid(arguments)
            if verdict is not False:
                return  # valid, or the schema cannot be applied (a missing local $ref): no verdict
            error = validator.error(arguments)
        except Uncheckable as why:
            yield from self._unchecked(exchange, session, tool, why)
            return
        if error is None:
            return
        session.assess(self)
        where = exchange.request.ptr / "params" / "arguments"
        for token in error.absolute_path:
            where = where / token
        at = "/".join(map(str, error.absolute_path)) or "arguments"
        yield Violation(response.ptr / "result",
                        f"tool {exchange.tool_name!r} succeeded although its arguments violate its inputSchema "
                        f"({at}: {_short(error.message)}); validate arguments and return an isError result",
                        related=((where, "the invalid argument"), (tool_ptr / "inputSchema", "the inputSchema")))

    def _note_rejection(self, exchange, session, ctx, result: dict) -> None:
        """An isError answer: evidence of validation once the session shows it is not the answer
        valid arguments get too (``check_session``); evidence at once when the arguments cannot
        be judged against the schema (as before there was a comparison to make)."""
        judged = session.__dict__.setdefault(_JUDGED, {})
        count = judged.get(exchange.tool_name, 0)
        if count >= _MAX_JUDGED or (not count and len(judged) >= _MAX_KEPT):
            return  # (a tool's first answers tell; a long capture of failing calls need not all be judged)
        judged[exchange.tool_name] = count + 1
        validator = _validator(session, exchange.tool_name, exchange.tool[1], ctx.version)
        try:
            verdict = None if validator is None else validator.quick(exchange.request.params.get("arguments", {}))
        except Uncheckable:
            verdict = None
        if verdict is None:
            session.assess(self)
            return
        kept = session.__dict__.setdefault(_VALID_FAILED if verdict else _REJECTED, {})
        if exchange.tool_name in kept or len(kept) < _MAX_KEPT:
            texts = kept.setdefault(exchange.tool_name, set())
            if len(texts) < _MAX_KEPT:
                texts.add(_error_text(result))

    def check_session(self, session, ctx):
        valid_failed = session.__dict__.get(_VALID_FAILED, {})
        rejected = session.__dict__.get(_REJECTED, {})
        if any(texts - valid_failed.get(name, set()) for name, texts in rejected.items()):
            session.assess(self)
        return iter(())

    def _unchecked(self, exchange, session, tool: dict, why: Uncheckable):
        """The arguments could not be judged: say why, once per tool and place in its schema."""
        path = first_report(session, _UNCHECKED, exchange.tool_name, tool.get("inputSchema"), why)
        if path is None:
            return
        session.assess(self)
        if why.reason == EXTERNAL_REF:
            message = (f"{EXTERNAL_REF}: the arguments of tool {exchange.tool_name!r} reach {show(why.value)}, "
                       "which was not fetched, so whether the server accepts invalid arguments is unknown; "
                       "inline the definition under '$defs'")
        elif why.reason == EXPANDS:
            at = f" (repeated at {show(why.value)})" if why.value else ""
            message = (f"{EXPANDS}: the arguments of tool {exchange.tool_name!r} were not checked against the "
                       f"inputSchema{at}: {why.detail}, so whether the server accepts invalid arguments is "
                       "unknown, and a validator following these $refs does as much work: reference each "
                       "definition once")
        else:
            message = (f"{why.reason}: the arguments of tool {exchange.tool_name!r} were not checked against "
                       f"{show(why.value)} ({why.detail}); a pattern that backtracks this much lets a crafted "
                       "argument stall the server's own validator: simplify it (no nested repetition)")
        tool_ptr = exchange.tool[0]
        yield Violation(tool_ptr.__class__((*tool_ptr, "inputSchema", *path)), message,
                        related=((exchange.request.ptr / "params" / "arguments", "the arguments"),))


def _validator(session, name: str, tool: dict, version: str):
    """One validator per tool definition: reused while tools/list keeps the same schema."""
    cache = getattr(session, _STATE, None)
    if cache is None:
        cache = {}
        setattr(session, _STATE, cache)
    schema = tool.get("inputSchema")
    found = cache.get(name)
    if found is not None and found[0] is schema:
        return found[1]
    validator = validator_for(schema, version)
    cache[name] = (schema, validator)
    return validator


def _error_text(result: dict) -> str:
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    return "\n".join(b["text"] for b in blocks[:16] if isinstance(b, dict) and isinstance(b.get("text"), str))[:1000]


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
