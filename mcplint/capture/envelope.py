"""Small facts about JSON-RPC messages shared by the envelope and lifecycle rules."""

from __future__ import annotations

from typing import Any

from mcplint import versions
from mcplint.capture.records import CLIENT
from mcplint.capture.session import REQUEST, id_key
from mcplint.tool_fields import show


def valid_id(value: Any) -> bool:
    """A request id MCP accepts: a string or an integer (not null, a float, a bool or an object)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def http_request_message(record, session):
    """The JSON-RPC message the client POSTed in the HTTP exchange a server record answers."""
    request = record.request if record.request is not None else session.last_request
    return request.message if request is not None and isinstance(request.message, dict) else None


def readable_request_id(message, session):
    """The id of the client request a server message answers, when it can be told for sure:
    over HTTP, the request POSTed in the same exchange; over stdio, the only request pending."""
    record = message.record
    if record.http:
        sent = http_request_message(record, session)
        if sent is not None and "method" in sent and valid_id(sent.get("id")):
            return sent["id"]
        return None
    pending = [m for (sender, _), m in session.pending.items() if sender == CLIENT and m.kind == REQUEST]
    return pending[0].id if len(pending) == 1 and valid_id(pending[0].id) else None


def is_stateless_request(request, session) -> bool:
    """A request of the stateless era: its `_meta` names 2026-07-28 or later (or, with no
    `_meta` version, no initialize has settled a handshake session)."""
    version = request.meta_version
    if version is not None:
        return version in versions.VERSIONS and versions.is_stateless(version)
    return session.initialize is None and versions.is_stateless(session.version)


__all__ = ["id_key", "show", "valid_id", "http_request_message", "readable_request_id", "is_stateless_request"]
