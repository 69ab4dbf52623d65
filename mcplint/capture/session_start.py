"""Captures that begin mid-session (a proxy or a log switched on late).

What happened "before initialize" is known only when the capture shows the session begin:
an `initialize` later in the same capture, or a request an audit probe sent (the audit opens
its sessions itself). Until then a rule holds its findings here, and releases them at the
end of the capture if an `initialize` came after them.
"""

from __future__ import annotations

from mcplint.capture.http import SESSION_HEADER, header

MAX_HELD = 100  # a long mid-session capture must not grow this without bound; reports cap far lower


def hold(session, code: str, violation) -> None:
    held = session.__dict__.setdefault(f"_held_before_initialize_{code}", [])
    if len(held) < MAX_HELD:
        held.append(violation)


def released(session, code: str) -> list:
    """The held findings, when an initialize later in the capture proves they came before it."""
    if session.initialize is None:
        return []  # no initialize at all: the capture probably began after it
    return session.__dict__.get(f"_held_before_initialize_{code}", [])


def in_unseen_session(request) -> bool:
    """The request names an Mcp-Session-Id although no initialize was seen: its session began
    before the capture did."""
    return request is not None and bool(header(request, SESSION_HEADER))
