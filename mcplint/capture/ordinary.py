"""Plainly ordinary traffic, recognised once for a family of rules.

Most of a capture is the same few shapes over and over: a server's successful answer to a
pending request, an HTTP 200 with a JSON body to a POSTed request. A rule that can find
nothing in such a message, and changes no state when it looks, says so with
``quiet_on = frozenset({PLAIN_SUCCESS})`` (or ``ORDINARY_ANSWER``, ``STEADY_SESSION``,
``PLAIN_CALL``); the dispatcher then asks the predicate below once per message or record
instead of calling each of those rules to return at once. Each predicate's docstring is the contract: what it guarantees, rule by rule.
tests/test_ordinary.py checks the contract on every capture we have (the same findings and
checklist with and without the shortcut, and each quiet rule silent wherever its predicate
holds).
"""

from __future__ import annotations

from mcplint import versions
from mcplint.capture.envelope import http_request_message
from mcplint.capture.http import (ALLOWED_ANSWER_TYPES, SESSION_HEADER, VERSION_HEADER, first_of_response, header,
                                  media_type, request_of, session_ids)
from mcplint.capture.records import CLIENT
from mcplint.capture.session import id_key

PLAIN_SUCCESS = "plain-success"  # check_message of a server's response
ORDINARY_ANSWER = "ordinary-answer"  # check_record of a server's HTTP record
STEADY_SESSION = "steady-session"  # check_record of a server's HTTP record, for its session headers
PLAIN_CALL = "plain-call"  # check_exchange of a tools/call that did not fail
VERSION_HEADER_ITEM = 21  # the checklist item of the MCP-Protocol-Version header (MCP810 marks it)


def plain_success(message, session) -> bool:
    """A server response (the dispatcher asks only of those) with ``"jsonrpc": "2.0"``
    (MCP610), a string or integer id (MCP611) of a request the client has pending (MCP615), a
    result object (MCP613) and no error member (MCP612), whose result is not ``isError: true``
    (MCP709, MCP712 judge only errors and isError results), and which over HTTP answers a POST
    whose message has an id (MCP614 judges answers to notifications)."""
    ident = message.id
    kind = type(ident)
    if kind is not int and kind is not str:  # (a bool's type is bool, not int)
        return False
    data = message.data
    result = message.result
    if (result is None or "error" in data or data.get("jsonrpc") != "2.0" or result.get("isError") is True
            or (CLIENT, id_key(ident)) not in session.pending):
        return False
    record = message.record
    if not record.http:
        return True
    sent = http_request_message(record, session)
    return sent is None or "id" in sent


def ordinary_answer(record, session) -> bool:
    """A server HTTP record (the dispatcher asks only of those) that is not the first of its
    HTTP response (later SSE events: MCP815-MCP818, MCP821 and MCP822 judge a response once),
    or that answers a POST holding one JSON-RPC request with a 2xx other than 202 and a JSON or
    SSE body that was read (MCP815 judges POSTs of notifications, MCP816 other types, bodiless
    answers and bodies that could not be read,
    MCP817 GETs, MCP818 GETs and DELETEs), without an Origin header (MCP821, MCP822). (Whether
    the POST went to an HTTP+SSE endpoint does not matter: MCP815 and MCP816 pass those.)"""
    request = first_of_response(record, session)
    if request is None:
        return True
    status = record.status
    if status is None or not 200 <= status < 300 or status == 202 or request.method != "POST":
        return False
    body = request.message
    if type(body) is not dict or "method" not in body or "id" not in body:
        return False
    return (media_type(header(record, "content-type")) in ALLOWED_ANSWER_TYPES
            and header(request, "origin") is None and record.message is not None)


def steady_session(record, session) -> bool:
    """A server record (the dispatcher asks only of those) of a session whose headers say
    nothing new: the record's Mcp-Session-Id is absent or the one MCP823 judged last; and,
    when it answers an HTTP request, that id is absent or the request's own (MCP824 judges
    ids a response sets), the request's session id is not one a DELETE ended (MCP819), the
    record neither assigns nor ends an id (MCP819 judges once per response, after a DELETE
    too), and the request's MCP-Protocol-Version is absent or a known version after
    checklist item 21 was assessed (MCP810 judges unknown versions and marks the item).
    Asks ``session_ids`` of the record as those rules do (its state moves on with the first
    caller)."""
    value = header(record, SESSION_HEADER)
    if value is not None and value != getattr(session, "_mcp823_last", None):
        return False
    request = request_of(record, session)
    if request is None:
        return True
    ids = session_ids(session, record, request)
    sent = header(request, SESSION_HEADER)
    if (value and value != sent) or (sent and sent in ids.deleted) or ids.changing:
        return False
    version = header(request, VERSION_HEADER)
    return version is None or (version in versions.VERSIONS and VERSION_HEADER_ITEM in session.assessed)


def plain_call(exchange, session) -> bool:
    """A tools/call exchange that did not fail (the dispatcher asks only of those) with a
    result of no ``resultType`` (MCP638 judges 2026-07-28's input_required results), asking
    for a tool the session's tools/list has (MCP705, MCP706 judge calls of unknown tools), not
    sent in a batch (MCP620), after initialize (MCP625), by a server that declared the tools
    capability or whose capabilities are unknown (MCP631)."""
    if exchange.tool is None or session.initialize is None or exchange.request.in_batch:
        return False
    result = exchange.response.result
    if result is None or "resultType" in result:
        return False
    capabilities = session.server_capabilities
    return capabilities is None or type(capabilities.get("tools")) is dict
