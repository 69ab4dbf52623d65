"""The audit's probes: deliberate requests whose answers the transcript rules judge.

Each probe is a function of the running ``Audit`` (mcplint.audit.runner). It sends a
bounded number of requests, each with the audit's timeout, tags them in the
transcript (``"probe": name``) and returns one line saying what it saw. The verdict
is the linter's: probes only make the evidence exist. ``ITEMS`` says which checklist
items each probe gives evidence for; the report lists, per item, the probes that ran.

None of them can change anything on the server: they call unknown tools and methods,
send malformed or invalid messages, and call only tools the safety planner cleared
(mcplint.audit.safety).
"""

from __future__ import annotations

import re
import time

from mcplint.audit.arguments import invalid_cases, unbuildable_reason, valid_arguments
from mcplint.audit.session import META_CAPABILITIES
from mcplint.regex_cache import regex
from mcplint.versions import V2025_06_18

UNKNOWN_METHOD = "mcplint/no-such-method"
UNKNOWN_TOOL = "mcplint_probe_no_such_tool"
BAD_VERSION = "1999-01-01"
FOREIGN_ORIGIN = "http://mcplint-probe.invalid"
RATE_LIMIT_WINDOW = 10.0  # seconds: --probe-rate-limit sends at most N requests within this
MAX_RATE_LIMIT = 500
GET_STREAM_BOUND = 0.5  # seconds the GET stream is read
REJECTED = "rejected"  # what a call refused for its placeholder arguments got (Audit.calls)

ITEMS: dict[str, tuple[int, ...]] = {
    "tools/list": (1, 2, 3, 4, 5, 6, 7, 19, 20),
    "unknown-tool": (8, 9, 10, 11),
    "unknown-method": (8, 10),
    "malformed-json": (8,),
    "invalid-request": (8,),
    "ping": (),
    "unsupported-version": (8,),
    "missing-meta": (8,),
    "protocol-version-header": (21,),
    "foreign-origin": (17,),
    "batch": (8,),
    "notification": (),
    "no-credentials": (17,),
    "get-stream": (),
    "input-validation": (9, 10, 11, 16),
    "call-read-only": (9, 10, 11, 12, 13, 14, 15, 19),
    "allow-calls": (9, 10, 11, 12, 13, 14, 15, 19),
    "rate-limit": (18,),
    "delete-session": (),
    "session": (17, 21),
}


def unknown_method(audit) -> str:
    reply = audit.request(UNKNOWN_METHOD, {}, probe="unknown-method")
    return f"{UNKNOWN_METHOD}: {reply.describe()}"


def unknown_tool(audit) -> str:
    names = {tool.get("name") for tool in audit.tools if isinstance(tool.get("name"), str)}  # any JSON type may come
    name = UNKNOWN_TOOL
    while name in names:
        name += "_"
    reply = audit.request("tools/call", {"name": name, "arguments": {}}, probe="unknown-tool")
    return f"tools/call {name}: {reply.describe()}"


def malformed_message(audit) -> str:
    request_id = audit.session.next_id()
    return '{"jsonrpc": "2.0", "id": %d, "method": "tools/list", "params": {' % request_id


# Valid JSON but not a valid request: the JSON-RPC specification's own example (a number
# as the method, a string as params, no id). The expected answer is -32600 with
# "id": null, as no id could be read. Recorded like the malformed text, under "raw" with
# "message": null: it is not a JSON-RPC message, and a reader must not take it for a
# notification (which gets no answer).
INVALID_REQUEST = '{"jsonrpc": "2.0", "method": 1, "params": "bar"}'
QUICK_ANSWER = 0.4  # seconds a stdio server gets to answer the bad messages before the sync request


def malformed_json_http(audit) -> str:
    reply = audit.session.send(raw=malformed_message(audit), probe="malformed-json")
    audit.check_alive(reply, "malformed-json")
    return reply.describe()


def invalid_request_http(audit) -> str:
    reply = audit.session.send(raw=INVALID_REQUEST, probe="invalid-request")
    audit.check_alive(reply, "invalid-request")
    return reply.describe()


def bad_messages_stdio(audit) -> tuple[str, str]:
    """Both bad messages over stdio, back to back. A server may stay silent on a line it
    cannot parse, so instead of waiting out the timeout: a short wait for prompt answers,
    then, if fewer than two came, a cheap request whose answer shows the lines were read.
    The sync request goes out only after the wait, so an id-less error is not mistaken
    for the answer to it."""
    session = audit.session
    before = len(session.stray)
    session.send(raw=malformed_message(audit), probe="malformed-json", wait=False)
    session.send(raw=INVALID_REQUEST, probe="invalid-request", wait=False)
    deadline = time.monotonic() + min(QUICK_ANSWER, audit.timeout)
    while len(session.stray) - before < 2 and time.monotonic() < deadline:
        session.drain(deadline - time.monotonic(), until_response=True)
    if len(session.stray) - before < 2:
        audit.sync("malformed-json")
        session.drain(0.05)
    codes = [a["error"].get("code") for a in session.stray[before:]
             if isinstance(a, dict) and isinstance(a.get("error"), dict)]
    answers = len(session.stray) - before  # in order: the server reads lines in order
    first = f"error {codes[0]!r}" if codes else ("answered" if answers else "no answer")
    second = f"error {codes[1]!r}" if len(codes) > 1 else ("answered" if answers > 1 else "no answer")
    return first, second


def ping(audit) -> str:
    return f"ping: {audit.request('ping', probe='ping').describe()}"


def unsupported_version_modern(audit) -> str:
    reply = audit.request("tools/list", None, probe="unsupported-version", version=BAD_VERSION)
    return f"tools/list at {BAD_VERSION}: {reply.describe()}"


def missing_meta(audit) -> str:
    """A 2026-07-28 server/discover without the required clientCapabilities in `_meta`: the
    server must refuse it with -32602 (HTTP 400). Harmless, and judged by MCP643."""
    message = audit.session.message("server/discover")
    del message["params"]["_meta"][META_CAPABILITIES]
    reply = audit.session.send(message, probe="missing-meta")  # over HTTP with the usual headers
    audit.check_alive(reply, "missing-meta")
    return f"server/discover without clientCapabilities: {reply.describe()}"


def protocol_version_header(audit) -> str:
    reply = audit.request("tools/list", None, probe="protocol-version-header",
                          headers={"MCP-Protocol-Version": BAD_VERSION})
    return f"MCP-Protocol-Version: {BAD_VERSION}: {reply.describe()}"


def foreign_origin(audit) -> str:
    method = "server/discover" if audit.session.era == "modern" else "ping"
    reply = audit.request(method, None, probe="foreign-origin", headers={"Origin": FOREIGN_ORIGIN})
    return f"Origin: {FOREIGN_ORIGIN}: {reply.describe()}"


def batch(audit) -> str:
    session = audit.session
    method = "server/discover" if session.era == "modern" else "ping"
    message = [session.message(method)]
    reply = session.send(message, probe="batch", headers=session.headers_for(message[0]))
    audit.check_alive(reply, "batch")
    return f"[{method}]: {reply.describe()}"


def notification(audit) -> str:
    reply = audit.session.notify("notifications/cancelled", {"requestId": 1, "reason": "mcplint probe"},
                                 probe="notification")
    return f"notifications/cancelled: {reply.describe()}"


def no_credentials(audit) -> str:
    reply = audit.request("tools/list", None, probe="no-credentials", send_credentials=False)
    challenge = reply.header("www-authenticate")
    return f"tools/list without {', '.join(audit.session.client.user_headers)}: {reply.describe()}" + (
        f", WWW-Authenticate: {challenge}" if challenge else "")


def get_stream(audit) -> str:
    reply = audit.session.send(None, method="GET", accept="text/event-stream", probe="get-stream",
                               read_bound=GET_STREAM_BOUND, headers=audit.session.headers_for(None))
    if reply.timed_out:
        return "GET: no answer in time"
    kind = reply.http.content_type if reply.http is not None else ""
    return f"GET: HTTP {reply.status}" + (f" ({kind})" if kind else "")


def input_validation(audit) -> str:
    sent, notes = 0, []
    for decision in audit.plan.validate:
        for label, arguments in invalid_cases(decision.tool.get("inputSchema")):
            reply = audit.request("tools/call", {"name": decision.name, "arguments": arguments},
                                  probe="input-validation")
            sent += 1
            notes.append(f"{decision.name} {label}: {reply.describe()}")
    if not sent:
        return "no tool could be probed (none is cleared for calls, or no schema has a required or typed property)"
    return "; ".join(notes)


def valid_calls(audit, decisions, probe: str) -> str:
    """Each tool called once with arguments its schema accepts. The values are placeholders
    (mcplint.audit.arguments): a server may still reject them ("no such city"), and the note
    says so. No rule takes that for a fault: the structured-content rules skip isError results,
    MCP713 judges only successes, MCP707 leaves -32602 alone."""
    notes = []
    for decision in decisions:
        arguments = valid_arguments(decision.tool.get("inputSchema"))
        if arguments is None:
            audit.calls[decision.name] = f"not called ({unbuildable_reason(decision.tool.get('inputSchema'))})"
            notes.append(f"{decision.name}: {audit.calls[decision.name]}")
            continue
        reply = audit.request("tools/call", {"name": decision.name, "arguments": arguments}, probe=probe)
        rejected = " (rejected its placeholder arguments)" if rejected_arguments(reply) else ""
        audit.calls[decision.name] = call_outcome(reply, bool(rejected))
        notes.append(f"{decision.name}: {reply.describe()}{rejected}")
    return "; ".join(notes) or "no tool was cleared for calls"


def call_outcome(reply, rejected: bool) -> str:
    """What a valid-argument call got, for the checklist's reasons (mcplint.audit.reasons)."""
    if rejected:
        return REJECTED
    if reply.timed_out:
        return "unanswered"
    failed = reply.error is not None or (isinstance(reply.result, dict) and reply.result.get("isError") is True)
    return "failed" if failed else "answered"


# What a server says when it refuses the arguments rather than failing: "Invalid timezone",
# "validation error", "must be a valid UUID", "unknown city", "missing required argument".
_ARGUMENT_COMPLAINT = regex(
    r"\b(?:invalid|validation|validate|must be|must match|not a valid|is not valid|is required|required (?:argument|"
    r"parameter|field|property)|missing|unknown|unrecognized|unsupported|not supported|not recognized|malformed|"
    r"bad (?:argument|parameter|input|request|value)|out of range|does not match|no such|not found|expected)\b",
    re.IGNORECASE)
_COMPLAINT_TEXT = 2_000  # characters of an answer searched


def rejected_arguments(reply) -> bool:
    """The tools/call was refused for its arguments: error -32602, or an error or isError
    result whose text complains about an argument."""
    error = reply.error
    if error is not None:
        if error.get("code") == -32602:
            return True
        texts = [error.get("message"), error.get("data")]
    elif isinstance(reply.result, dict) and reply.result.get("isError") is True:
        content = reply.result.get("content")
        texts = [block.get("text") for block in (content if isinstance(content, list) else [])[:20]
                 if isinstance(block, dict)]
    else:
        return False
    return any(isinstance(text, str) and _ARGUMENT_COMPLAINT.search(text[:_COMPLAINT_TEXT]) for text in texts)


def rate_limit(audit, count: int) -> str:
    """A burst of requests. The spec asks servers to rate-limit tool invocations, so when a tool
    is cleared by the gate (not merely allowed: a burst of an allowed tool could do harm N times)
    and arguments can be built, the burst calls it; otherwise it is pings, which only show the
    transport's limits and leave checklist item 18 unjudged."""
    session = audit.session
    method, params, what = ("server/discover" if session.era == "modern" else "ping"), None, None
    for decision in audit.plan.call:
        arguments = valid_arguments(decision.tool.get("inputSchema"))
        if decision.name not in audit.settings.allow_calls and not decision.open_world and arguments is not None:
            method, params, what = "tools/call", {"name": decision.name, "arguments": arguments}, decision.name
            break
    started = time.monotonic()
    sent = 0
    while sent < count:
        remaining = RATE_LIMIT_WINDOW - (time.monotonic() - started)
        if remaining <= 0:
            break
        reply = audit.request(method, params, probe="rate-limit", timeout=min(audit.timeout, remaining), check=False)
        sent += 1
        if reply.status == 429 or reply.error is not None:
            retry = reply.header("retry-after")
            seen = "HTTP 429" if reply.status == 429 else f"error {reply.error.get('code')!r}"
            return f"throttled after {sent} request(s) in {time.monotonic() - started:.1f} s: {seen}" + (
                f", Retry-After: {retry}" if retry else ", no Retry-After")
        if reply.timed_out:
            return f"no answer to request {sent} of the burst"
    burst = f"calls of {what}" if what else f"{method} request(s)"
    tail = "" if what else (" (pings are not tool calls: no closed-world read-only tool could be called)"
                            if getattr(audit.settings, "call_read_only", False) else
                            " (pings are not tool calls: with --call-read-only the burst calls a read-only tool)")
    return f"no throttling signal in {sent} {burst} over {time.monotonic() - started:.1f} s{tail}"


def delete_session(audit) -> str:
    session = audit.session
    reply = session.send(None, method="DELETE", probe="delete-session", headers=session.headers_for(None))
    return f"DELETE: {reply.describe()}"


def newer_or_equal(version: str | None, than: str) -> bool:
    return isinstance(version, str) and version >= than


def header_version_applies(session) -> bool:
    """MCP-Protocol-Version is required from 2025-06-18 (and in every stateless request)."""
    return session.era == "modern" or newer_or_equal(session.version, V2025_06_18)
