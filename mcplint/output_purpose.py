"""What a tool's name says its output is for, so that output rules do not call a tool's
purpose a leak (MCP422, MCP423): `create_api_key` must return a key, and `get_job_logs`
or `run_tests` return the stack traces of the code they ran.

Read from the tool's name only (split like ``mcplint.risk.name_words``): a description is
free text a server writes, and a wrong exemption hides a real leak.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from mcplint.risk import name_words

# The name mentions a credential: create_api_key, get_access_token, rotate_secret, login.
_CREDENTIALS = frozenset(
    "token tokens key keys apikey apikeys secret secrets password passwords passwd credential credentials "
    "creds pat jwt jwts keypair privatekey certificate cert login signin authenticate".split()
)
# ... unless it is about the credential, not the credential itself: get_token_status, list_key_scopes.
_ABOUT = frozenset(
    "status info metadata usage count expiry expiration expires scopes scope permissions name names id ids "
    "exists valid validity".split()
)
# The name says it returns a log, a test or CI run, or error reports, which hold stack traces by nature.
_TRACE_SOURCES = frozenset(
    "test tests pytest unittest jest mocha vitest spec specs ci build builds job jobs workflow workflows "
    "pipeline pipelines log logs logcat syslog journal journalctl stderr traceback tracebacks stacktrace "
    "stacktraces exception exceptions crash crashes crashlog sentry".split()
)


def returns_credential(name: Any) -> bool:
    """The tool's purpose is to hand out a credential (a token, a key, a password)."""
    return _purposes(name)[0]


def returns_traces(name: Any) -> bool:
    """The tool's purpose is to return a test, CI or other log (stack traces included)."""
    return _purposes(name)[1]


def _purposes(name: Any) -> tuple[bool, bool]:
    """(returns a credential, returns traces). Asked for every tools/call answer, and a
    capture calls the same few tools: remembered, except for long (hostile) names."""
    if not isinstance(name, str):
        return False, False
    return (_read_name if len(name) > 200 else _remembered)(name)


def _read_name(name: str) -> tuple[bool, bool]:
    words = name_words(name)
    return (bool(words) and not _CREDENTIALS.isdisjoint(words) and words[-1] not in _ABOUT,
            not _TRACE_SOURCES.isdisjoint(words))


_remembered = lru_cache(maxsize=4096)(_read_name)
