"""The HTTP+SSE transport (2024-11-05; deprecated from 2025-03-26, which still lets servers
offer it to older clients) seen in a capture.

There the client POSTs every message to the endpoint the server announced in an `endpoint`
event of its GET stream, and the server answers each POST with 202 Accepted (the SDKs add
the text "Accepted"); the JSON-RPC response comes later on the GET stream. The Streamable
HTTP rules about POST answers do not apply to such a POST.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

# The SDKs' HTTP+SSE endpoints name the session in the URL (TypeScript `/messages?sessionId=…`,
# Python `/messages/?session_id=…`); Streamable HTTP never does, it has the Mcp-Session-Id header.
_SESSION_PARAMS = ("sessionId", "session_id")


def is_http_sse_post(request) -> bool:
    """Whether a POST went to an HTTP+SSE message endpoint rather than a Streamable HTTP one."""
    url = (request.http or {}).get("url")
    if not isinstance(url, str) or "?" not in url:
        return False
    try:
        query = parse_qs(urlsplit(url).query)
    except ValueError:
        return False
    return any(name in query for name in _SESSION_PARAMS)
