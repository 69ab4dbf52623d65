"""Shared knowledge for the error rules (MCP700-MCP713): which error codes each protocol
version defines, when an error is a transport rejection rather than an answer, what the
server's tool catalogue says. What an error's text says is in error_texts."""

from __future__ import annotations

import json
from typing import Any

from mcplint import versions
from mcplint.capture.ordinary import PLAIN_CALL
from mcplint.capture.session import SERVER
from mcplint.rule import TrafficRule, Violation

# -- error codes -------------------------------------------------------------------------------

STANDARD = {-32700: "Parse error", -32600: "Invalid Request", -32601: "Method not found",
            -32602: "Invalid params", -32603: "Internal error"}
RESOURCE_NOT_FOUND = -32002  # up to 2025-11-25; 2026-07-28 uses -32602
URL_ELICITATION_REQUIRED = -32042  # 2025-11-25 only
HEADER_MISMATCH, MISSING_CAPABILITY, UNSUPPORTED_VERSION = -32020, -32021, -32022  # from 2026-07-28
MODERN_CODES = {HEADER_MISMATCH: "HeaderMismatch", MISSING_CAPABILITY: "MissingRequiredClientCapability",
                UNSUPPORTED_VERSION: "UnsupportedProtocolVersion"}
RESERVED = range(-32768, -32000 + 1)  # JSON-RPC's reserved block
IMPLEMENTATION = range(-32099, -32000 + 1)  # JSON-RPC "server error" codes, implementation-defined
LEGACY = range(-32019, -32000 + 1)  # 2026-07-28: grandfathered SDK codes, not for new use

# Verdicts of `code_verdict`
OK, RESERVED_UNDEFINED, RETIRED, OTHER_VERSION, LEGACY_RANGE, AD_HOC = (
    "ok", "reserved", "retired", "other-version", "legacy", "ad-hoc")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def code_verdict(code: int, version: str) -> tuple[str, str]:
    """(verdict, why) for an integer error code sent under ``version``."""
    modern = versions.is_stateless(version)
    if code in STANDARD:
        return OK, STANDARD[code]
    if code == RESOURCE_NOT_FOUND:
        if modern:
            return RETIRED, "-32002 (resource not found) is retired in 2026-07-28; use -32602"
        return OK, "resource not found"
    if code == URL_ELICITATION_REQUIRED:
        if modern:
            return RETIRED, "-32042 (URL elicitation required) is retired in 2026-07-28"
        if version == versions.V2025_11_25:
            return OK, "URL elicitation required"
        return OTHER_VERSION, f"-32042 means URL elicitation required only in 2025-11-25, not in {version}"
    if code in MODERN_CODES:
        if modern:
            return OK, MODERN_CODES[code]
        return OTHER_VERSION, (f"{code} ({MODERN_CODES[code]}) is defined from 2026-07-28; "
                               f"under {version} clients read it as an implementation-defined server error")
    if code in IMPLEMENTATION:
        if not modern:
            return OK, "implementation-defined server error"
        if code in LEGACY:
            return LEGACY_RANGE, "-32000..-32019 is the legacy implementation-defined range in 2026-07-28"
        return RESERVED_UNDEFINED, (f"{code} is in -32020..-32099, which 2026-07-28 reserves for codes "
                                    "the specification defines, and it defines no such code")
    if code in RESERVED:
        return RESERVED_UNDEFINED, f"{code} is in JSON-RPC's reserved range -32768..-32000 but is not a defined code"
    if code in (0, -1) or 100 <= abs(code) <= 599:
        return AD_HOC, ad_hoc_reason(code)
    return OK, "application-defined code"


def ad_hoc_reason(code: int) -> str:
    if 100 <= abs(code) <= 599:
        return f"{code} looks like an HTTP status, not a JSON-RPC error code"
    return f"{code} is a placeholder, not a JSON-RPC error code"


def server_error(message) -> dict | None:
    """The error object of a server's error response, else None (cheap: rules call it first)."""
    if message.kind != "response" or message.sender != SERVER:
        return None
    error = message.data.get("error")  # a response's data is always an object
    return error if isinstance(error, dict) else None


def error_code(error: dict) -> int | None:
    code = error.get("code")
    return code if is_int(code) else None


TRANSPORT_CODES = frozenset({-32700, HEADER_MISMATCH, MISSING_CAPABILITY, UNSUPPORTED_VERSION})
ANSWER_CODES = frozenset({-32601, -32602, -32603})


def is_transport_rejection(message, code: int | None) -> bool:
    """Refused before the method (parse, envelope, headers, session, version): says nothing of how tool
    errors are reported. -32600 only in an HTTP 4xx: over stdio or in a 2xx the method chose it."""
    status = message.record.status if message.record.http else None
    if code == -32600:  # (kubernetes answers an unknown tool with -32600 over stdio)
        return isinstance(status, int) and status >= 400
    return code in TRANSPORT_CODES or (isinstance(status, int) and status >= 400 and code not in ANSWER_CODES)


# -- the standard code a failure calls for (checklist item 8) ----------------------------------

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601
# The audit's probes (mcplint.audit.probes) tag their deliberately bad requests.
MALFORMED_PROBE, INVALID_PROBE, UNKNOWN_METHOD_PROBE = "malformed-json", "invalid-request", "unknown-method"
# Every request method some MCP version defines, and the namespaces they live in: a request
# in one of these namespaces that is none of them is visibly unknown (a real client's typo),
# while a method outside them may be the server's own extension.
SPEC_METHODS = frozenset({
    "initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/templates/list",
    "resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get",
    "logging/setLevel", "completion/complete", "sampling/createMessage", "roots/list", "elicitation/create",
    "tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update", "server/discover",
    "subscriptions/listen",
})
SPEC_NAMESPACES = frozenset({"tools", "resources", "prompts", "logging", "completion", "sampling", "roots",
                             "elicitation", "tasks", "server", "subscriptions"})


def is_unknown_method(request) -> bool:
    """The request asks for a method that exists in no MCP version: the audit's probe, or a
    method in a namespace the specification owns that it never defined ("tools/lists")."""
    if request.record.probe == UNKNOWN_METHOD_PROBE:
        return True
    method = request.method
    if method is None or method in SPEC_METHODS:
        return False
    return "/" in method and method.split("/", 1)[0] in SPEC_NAMESPACES


def bad_request_kind(record) -> int | None:
    """The code a client HTTP record's body calls for when it is not a usable request:
    -32700 for text that is not JSON, -32600 for JSON that is not a valid request; None
    for anything else. The audit's probes are known by their tags (their text is not
    kept), a real client's by its body."""
    if record is None:
        return None
    if record.probe == MALFORMED_PROBE:
        return PARSE_ERROR
    if record.probe == INVALID_PROBE:
        return INVALID_REQUEST
    if record.message is None:
        return PARSE_ERROR if record.raw_body and record.raw_body.strip() else None
    if isinstance(record.message, dict) and "jsonrpc" in record.message and not _valid_request(record.message):
        return INVALID_REQUEST
    return None


def _valid_request(data: dict) -> bool:
    """A JSON-RPC request or notification, or a response (the client answering the server)."""
    if "method" in data:
        params = data.get("params")
        return isinstance(data["method"], str) and (params is None or isinstance(params, (dict, list)))
    return "result" in data or "error" in data


ERROR_STATUSES = frozenset(range(400, 600))


def error_page(record) -> str | None:
    """The body of a server's HTTP error that is not JSON (an HTML or plain-text page), else None."""
    body = record.raw_body
    if record.message is not None or not body or not body.strip():
        return None
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return body
    return None  # a JSON body that is not JSON-RPC (an OAuth error): not a page


def page_kind(record, body: str) -> str:
    media = (record.header("content-type") or "").split(";", 1)[0].strip().lower()
    if media == "text/html" or body.lstrip()[:1] == "<":
        return "an HTML page"
    return "a plain-text page" if media in ("", "text/plain") else f"a {media} body"


def page_pointer(record):
    """Where an error page's text is: a HAR response's content text, a transcript line's "raw"."""
    if record.base and record.base[-1] == "message":
        return record.line_pointer / "raw"
    return record.base  # a HAR record's base is its response's content text


# -- tools/call ---------------------------------------------------------------------------------

def call_result(exchange) -> dict | None:
    """The result of a tools/call exchange, or None (an error, or another method)."""
    if exchange.method != "tools/call":
        return None
    return exchange.response.result


def is_error_result(result: dict | None) -> bool:
    return isinstance(result, dict) and result.get("isError") is True


def is_plain_success(result: dict | None) -> bool:
    """A final, successful CallToolResult (not isError, not a 2026-07-28 input_required/task result)."""
    return (isinstance(result, dict) and result.get("isError") is not True
            and result.get("resultType", "complete") == "complete")


_CATALOG = "_mcp70x_catalog"


def note_catalog(session, message=None, exchange=None) -> None:
    """Follow whether the session's tool list is complete and current: the last tools/list
    page had no nextCursor and no list_changed came after it. Idempotent: every rule that
    asks calls it from its own hooks."""
    state = getattr(session, _CATALOG, None)
    if state is None:
        state = {"complete": False, "stale": False}
        setattr(session, _CATALOG, state)
    if exchange is not None and exchange.method == "tools/list" and exchange.response.result is not None:
        state["complete"] = "nextCursor" not in exchange.response.result
        state["stale"] = False
    elif (message is not None and message.method == "notifications/tools/list_changed"
          and message.sender == SERVER and state["complete"]):
        state["stale"] = True


def unknown_tool(exchange, session) -> str | None:
    """The name of the tool a tools/call asked for when the session's complete, current
    tools/list does not have it; None when it is known or the list cannot tell."""
    if exchange.method != "tools/call" or exchange.tool is not None:
        return None
    name = exchange.tool_name
    state = getattr(session, _CATALOG, None)
    if name is None or state is None or not state["complete"] or state["stale"] or getattr(session, "listing_cut", None):
        return None  # (a listing cut at the budget is incomplete: listing_budget)
    return name


class UnknownToolRule(TrafficRule):
    """Base of the rules about calls of a tool that the session's complete, current
    tools/list does not have: it follows the list (pages, list_changed notifications)
    and hands each such call to ``check_unknown``."""

    kinds = frozenset({"notification"})
    methods = frozenset({"notifications/tools/list_changed", "tools/list", "tools/call"})
    checklist = (9,)
    needs = "tools/call of a tool missing from a complete tools/list"
    quiet_on = frozenset({PLAIN_CALL})  # see mcplint.capture.ordinary

    def check_message(self, message, session, ctx):
        if message.kind == "notification" and message.method == "notifications/tools/list_changed":
            note_catalog(session, message=message)
        return iter(())

    def check_exchange(self, exchange, session, ctx):
        if exchange.method == "tools/list":
            note_catalog(session, exchange=exchange)
            return iter(())
        name = unknown_tool(exchange, session)
        if name is None:
            return iter(())
        session.assess(self)
        return self.check_unknown(name, exchange, session, ctx)

    def check_unknown(self, name: str, exchange, session, ctx):
        raise NotImplementedError


class ErrorCodeRule(TrafficRule):
    """Base of the error-code rules (MCP701-MCP704): each judges the server's error codes
    that ``code_verdict`` puts in one of its ``verdicts``, saying ``advice(code, why, version)``."""

    senders = frozenset({"server"})
    kinds = frozenset({"response"})
    errors_only = True
    needs = "JSON-RPC error response"
    verdicts: frozenset = frozenset()

    def check_message(self, message, session, ctx):
        error = server_error(message)
        if error is None:
            return
        session.assess(self)
        code = error_code(error)
        if code is None:
            return
        verdict, why = code_verdict(code, ctx.version)
        if verdict in self.verdicts:
            yield Violation(message.ptr / "error" / "code", self.advice(code, why, ctx.version))

    def advice(self, code: int, why: str, version: str) -> str:
        raise NotImplementedError
