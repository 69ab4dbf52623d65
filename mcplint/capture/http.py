"""HTTP facts for the transport rules (MCP800-MCP829): which request a server record
answers, hosts and origins, media types, WWW-Authenticate challenges, session ids.

A JSONL transcript writes one server line per SSE event, each repeating the response's
status and headers, so rules that judge a *response* ask ``first_of_response`` to look
at each HTTP exchange once.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from mcplint import versions
from mcplint.capture.records import CLIENT, SERVER, Record
from mcplint.capture.session import NOTIFICATION, REQUEST, RESPONSE, kind_of
from mcplint.regex_cache import regex

SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
# What a POST holding a request may be answered with (MCP816): one JSON object or an SSE stream.
ALLOWED_ANSWER_TYPES = ("application/json", "text/event-stream")


def header(record: Record, name: str) -> str | None:
    """``record.header(name)`` for a lower-case ``name``, with the record's header names
    lower-cased once (kept on the record): a dozen rules ask each HTTP record for the same
    few headers."""
    lowered = record.lowered
    if lowered is None:
        http = record.http
        headers = http.get("headers") if http else None
        lowered = {}
        if isinstance(headers, dict):
            for key, value in headers.items():
                if isinstance(key, str):
                    lowered.setdefault(key.lower(), value)
        if http:  # a record without HTTP facts now may be given them later (HAR pairing)
            record.lowered = lowered
    value = lowered.get(name)
    return value if value is None or type(value) is str else str(value)


def request_of(record: Record, session) -> Record | None:
    """The client record of the HTTP exchange a server record belongs to: paired by the HAR
    reader, or (JSONL) the latest client HTTP line before it."""
    if record.sender != SERVER or not record.http:
        return None
    request = record.request if record.request is not None else session.last_request
    return request if request is not None and request.http else None


def first_of_response(record: Record, session) -> Record | None:
    """The request, when ``record`` is the first record of its HTTP response (None for the
    second and later SSE events of one response, and for records without HTTP facts)."""
    known = record.first_of
    if known is not None:
        return known[0]
    request = request_of(record, session)
    if request is not None:
        seen = getattr(session, "_http_first", None)
        if seen is not None and seen[0] is request and seen[1] != record.index:
            request = None
        elif seen is None or seen[0] is not request:
            session._http_first = (request, record.index)
    record.first_of = (request,)
    return request


def is_success(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


def media_type(value: str | None) -> str:
    """``application/json; charset=utf-8`` -> ``application/json``; '' when absent."""
    return (value or "").split(";", 1)[0].strip().lower()


def has_body(record: Record) -> bool:
    return record.message is not None or bool(record.raw_body and record.raw_body.strip())


def kinds(message: Any) -> set[str]:
    """The JSON-RPC kinds in an HTTP body (one message or a batch)."""
    items = message if isinstance(message, list) else [message]
    return {kind_of(item) for item in items}


def carries_request(request: Record) -> bool:
    return request.message is not None and REQUEST in kinds(request.message)


def only_notifications_or_responses(request: Record) -> bool:
    found = kinds(request.message) if request.message is not None else set()
    return bool(found) and found <= {NOTIFICATION, RESPONSE}


def rpc_method(request: Record) -> str | None:
    data = request.message
    method = data.get("method") if isinstance(data, dict) else None
    return method if isinstance(method, str) else None


# -- hosts and origins -----------------------------------------------------------------

def split_host(value: str | None) -> tuple[str, int | None] | None:
    """``host:port``, ``[::1]:80`` or a URL -> (lower-case host without brackets, port)."""
    if not value or not isinstance(value, str):
        return None
    text = value.strip()
    if "://" not in text:
        text = "//" + text
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    return (host.lower(), port) if host else None


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def request_url(request: Record) -> tuple[str, str | None]:
    """(scheme, host) the client reached: from the URL, else the Host header."""
    url = (request.http or {}).get("url")
    if isinstance(url, str) and "://" in url:
        try:
            parts = urlsplit(url)
            return parts.scheme.lower(), (parts.hostname or "").lower() or None
        except ValueError:
            pass
    host = split_host(header(request, "host"))
    return "", host[0] if host else None


def foreign_origin(request: Record) -> str | None:
    """The request's Origin when it names another host than the one the request went to.

    Hosts compare without ports, and two loopback names count as the same machine: a
    local web app on another port of localhost is what SDKs' DNS-rebinding guards allow.
    The literal ``null`` origin (sandboxed pages, file: URLs) is foreign."""
    origin = header(request, "origin")
    if origin is None:
        return None
    if origin.strip().lower() == "null":
        return origin
    origin_host = split_host(origin)
    target = split_host(header(request, "host")) or ((request_url(request)[1] or ""), None)
    if origin_host is None or not target[0]:
        return None
    if origin_host[0] == target[0] or (is_loopback(origin_host[0]) and is_loopback(target[0])):
        return None
    return origin


# -- WWW-Authenticate --------------------------------------------------------------------

_CHALLENGE_PART = regex(
    r'\s*(?:(?P<key>[!#$%&\'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?P<value>"(?:[^"\\]|\\.)*"|[^\s,]*)'
    r"|(?P<scheme>[!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+(?P<token68>[A-Za-z0-9._~+/-]+=*)(?=\s*(?:,|$)))?)\s*,?"
)


def challenges(value: str | None) -> list[tuple[str, dict[str, str]]]:
    """RFC 9110 challenges: ``Bearer realm="x", resource_metadata="…"`` -> [("bearer", {...})]."""
    found: list[tuple[str, dict[str, str]]] = []
    text, pos = value or "", 0
    while pos < len(text):
        match = _CHALLENGE_PART.match(text, pos)
        if match is None or match.end() == pos:
            break
        pos = match.end()
        if match.group("scheme"):
            found.append((match.group("scheme").lower(), {}))
        elif match.group("key") and found:
            raw = match.group("value")
            if raw.startswith('"'):
                raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
            found[-1][1][match.group("key").lower()] = raw
    return found


def names_resource_metadata(value: str | None) -> bool:
    """Whether a WWW-Authenticate value has a challenge with a resource_metadata parameter."""
    return any("resource_metadata" in params for _, params in challenges(value))


# -- session ids --------------------------------------------------------------------------

def session_id_ok(value: str) -> bool:
    """Mcp-Session-Id: visible ASCII (0x21-0x7E) only, at least one character."""
    return bool(value) and all("!" <= ch <= "~" for ch in value)


class SessionIds:
    """The session ids a server assigned (on initialize responses) and the ones ended by a
    successful DELETE, as they stood *before* the record being judged. Several rules look
    at the same record; the record's own effect is applied when the next one arrives."""

    LIMIT = 1000  # a capture with more sessions than this stops telling unknown ids apart

    def __init__(self) -> None:
        self.assigned: set[str] = set()
        self.deleted: set[str] = set()
        self.overflow = False
        self._current: Record | None = None
        self._pending: tuple[str, str] | None = None

    def view(self, record: Record, request: Record | None) -> "SessionIds":
        if record is self._current:
            return self
        if self._pending is not None:
            what, value = self._pending
            target = self.assigned if what == "assigned" else self.deleted
            if len(target) >= self.LIMIT:
                self.overflow = True
            else:
                target.add(value)
        self._current, self._pending = record, None
        if record.sender == SERVER and request is not None and is_success(record.status):
            if rpc_method(request) == "initialize" and header(record, SESSION_HEADER):
                self._pending = ("assigned", header(record, SESSION_HEADER))
            elif request.method == "DELETE" and header(request, SESSION_HEADER):
                self._pending = ("deleted", header(request, SESSION_HEADER))
        return self

    @property
    def changing(self) -> bool:
        """Whether the record last viewed assigns or ends a session id (when the next arrives)."""
        return self._pending is not None

    def is_unknown(self, value: str) -> bool:
        """Never assigned in this capture (which did show the server assigning ids)."""
        return bool(self.assigned) and not self.overflow and value not in self.assigned


def session_ids(session, record: Record, request: Record | None) -> SessionIds:
    tracker = getattr(session, "_http_session_ids", None)
    if tracker is None:
        tracker = session._http_session_ids = SessionIds()
    return tracker.view(record, request)


def after_initialization(session) -> bool:
    """Requests from here on must carry MCP-Protocol-Version: after an initialize result,
    or always in a stateless (2026-07-28) session."""
    # The attribute first: asked of every request, and most sessions have had their initialize.
    return session.initialize is not None or versions.is_stateless(session.version)


__all__ = [
    "ALLOWED_ANSWER_TYPES", "CLIENT", "SERVER", "SESSION_HEADER", "VERSION_HEADER", "SessionIds", "after_initialization", "header",
    "carries_request", "challenges", "first_of_response", "foreign_origin", "has_body", "is_loopback",
    "is_success", "kinds", "media_type", "names_resource_metadata", "only_notifications_or_responses", "request_of", "request_url",
    "rpc_method", "session_id_ok", "session_ids", "split_host",
]
