"""The handshake of an audit: era detection, version negotiation, and starting again a stdio
server that exits on a probe.

Era detection (spec-requirements §1): ``server/discover`` first, with the
2026-07-28 ``_meta``; a result that lists 2026-07-28 means the stateless era, and
*anything else* (any error code, any HTTP status, a timeout) means falling back to
``initialize``. ``--protocol-version`` skips the guess.

A server that has answered nothing at all is given up on as soon as that can be told from
a handshake-era server staying silent on purpose. Over HTTP every server answers a POST with
some status, so no response to ``server/discover`` ends the audit there. Over stdio a
handshake-era server may ignore ``server/discover`` before ``initialize`` without a word (the
2026-07-28 backward-compatibility rule counts silence as legacy), so ``initialize`` still
follows; only if it too gets not a byte on stdout does the audit end, without the second offer.
(Sending ``initialize`` before the silence is over would be faster, but it would reach modern
servers slow to start and put an ``initialize`` in their transcripts.)

The handshake doubles as the unsupported-version probe: unless a version is forced,
``initialize`` first offers a version that does not exist, and a compliant server
answers with one it supports (LIFE-03), which is then the session's version. A
server that answers with an error, or not at all, gets a second ``initialize`` with the
newest handshake version. (A separate connection for this probe would cost a second
server start over stdio, and a second session in the transcript.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcplint import progress
from mcplint.audit import probes
from mcplint.audit.server_text import printable, quoted
from mcplint.audit.session import CLIENT_INFO, HttpSession, Reply
from mcplint.audit.stdio import ServerError
from mcplint.audit.stdio_session import StdioSession
from mcplint.capture.http import session_id_ok
from mcplint.versions import LATEST, LATEST_HANDSHAKE, VERSIONS, is_stateless

if TYPE_CHECKING:
    from mcplint.audit.runner import Audit


def establish(audit: Audit) -> bool:
    session, forced = audit.session, audit.settings.protocol_version
    stdio = isinstance(session, StdioSession)
    progress.stage("starting the server" if stdio and not session.heard else "", requests=True)
    if forced is None or is_stateless(forced):
        version = forced or LATEST
        try:
            reply = session.request("server/discover", None, version=version)
        except ServerError:
            if forced is not None or not restarted(audit, "server/discover"):
                raise
            return _initialize(audit, forced)
        if reply.timed_out and not session.heard and (forced is not None or not stdio):
            raise _answered_nothing(audit, ["server/discover"])
        progress.stage("no answer to server/discover" if reply.timed_out else "", requests=True)
        _fatal_http(audit, reply, "server/discover")
        result = reply.result if reply.ok and isinstance(reply.result, dict) else None
        supported = result.get("supportedVersions") if result is not None else None
        if isinstance(supported, list) and version in supported:
            return _modern(audit, version, result)
        if forced is not None:
            raise ServerError(_prefix(audit) + f"server/discover at {forced} failed ({reply.describe()}); "
                              "the server does not speak the stateless protocol")
        audit.log(f"server/discover: {reply.describe()}; falling back to initialize")
    return _initialize(audit, forced)


def _modern(audit: Audit, version: str, result: dict) -> bool:
    session = audit.session
    session.era, session.version = "modern", version
    audit.capabilities = _dict(result.get("capabilities"))
    meta = _dict(result.get("_meta"))
    audit.server_info = _dict(meta.get("io.modelcontextprotocol/serverInfo")) or None
    audit.ran("session", f"server/discover: stateless protocol {version}")
    return True


def _stateless_after_all(session, reply: Reply) -> bool:
    """A server slow to start answers server/discover after the wait for it ended, then rejects
    initialize listing only the stateless version (-32022 ... supported: ["2026-07-28"]): it
    speaks the stateless protocol after all (ha-mcp's cold start, round 9)."""
    data = (reply.error or {}).get("data")
    listed = data.get("supported") if isinstance(data, dict) else None
    if isinstance(listed, list) and LATEST in listed:
        return True
    late = [*getattr(session, "stray", ()), *reply.others]
    return any(isinstance(m, dict) and isinstance(m.get("result"), dict)
               and isinstance(m["result"].get("supportedVersions"), list) and LATEST in m["result"]["supportedVersions"]
               for m in late)


def _discover_again(audit: Audit) -> bool | None:
    """server/discover once more, after initialize showed a stateless server; True when it worked."""
    reply = audit.session.request("server/discover", None, version=LATEST)
    result = reply.result if reply.ok and isinstance(reply.result, dict) else None
    supported = result.get("supportedVersions") if result is not None else None
    if not (isinstance(supported, list) and LATEST in supported):
        return None
    audit.notes.append("server/discover was answered only after --timeout, so initialize was tried first: "
                       "the server is slow to start (raise --timeout)")
    return _modern(audit, LATEST, result)


def restarted(audit: Audit, what: str) -> bool:
    """A stdio server that exited on ``what`` is started again, and the audit goes on: mcp 1.6
    servers die on any method they do not know, ``server/discover`` (sent first) included, and
    on a malformed line. MCP645 reports each exit (JSON-RPC requires an error answer). After a
    probe, the new process is initialized again at the session's version."""
    session = audit.session
    if not isinstance(session, StdioSession) or session.exited is None or not session.restart():
        return False
    then = {"server/discover": "went on with initialize", "initialize": "offered initialize again"}.get(
        what, "went on with the next probe")
    audit.notes.append(f"the server exited before answering the audit's {what} (MCP645); "
                       f"mcplint started it again and {then}")
    audit.log(f"{what}: the server exited; started again")
    if what not in ("server/discover", "initialize") and session.era == "handshake":
        params = {"protocolVersion": session.version, "capabilities": {}, "clientInfo": dict(CLIENT_INFO)}
        then = f"the server exited after the audit's {what} probe and was started again; then "
        try:
            reply = session.request("initialize", params)
        except ServerError as err:
            raise ServerError(then + str(err)) from None
        if not (reply.ok and isinstance(reply.result, dict)):
            raise ServerError(then + f"it did not answer initialize ({reply.describe()})")
        session.notify("notifications/initialized")
    return True


def _initialize(audit: Audit, forced: str | None) -> bool:
    session = audit.session
    offers = [forced] if forced else [probes.BAD_VERSION, LATEST_HANDSHAKE]
    reply = None
    for offer in offers:
        params = {"protocolVersion": offer, "capabilities": {}, "clientInfo": dict(CLIENT_INFO)}
        probe = "unsupported-version" if offer == probes.BAD_VERSION else None
        try:
            reply = session.request("initialize", params, probe=probe)
        except ServerError:
            # exited on this offer, or late on the server/discover before it (chroma-mcp's mcp 1.6):
            # the next offer goes to the server started again
            if offer == offers[-1] or not restarted(audit, "initialize"):
                raise
            audit.ran("unsupported-version", f"initialize with {offer}: the server exited (MCP645)")
            continue
        if reply.timed_out and not session.heard:  # server/discover went unanswered too, if it was sent
            asked = ["initialize"] if forced and not is_stateless(forced) else ["server/discover", "initialize"]
            raise _answered_nothing(audit, asked)
        if reply.timed_out and offer == offers[-1]:
            raise audit._stopped("initialize")
        if _fatal_http(audit, reply, "initialize") is False:
            return False
        if offer == probes.BAD_VERSION:  # silence here is a finding, not the end: the real offer follows
            audit.ran("unsupported-version", f"initialize with {offer}: " + (
                f"answered with {quoted(reply.result.get('protocolVersion'))}" if reply.ok and isinstance(reply.result, dict)
                else reply.describe()))
        if reply.ok and isinstance(reply.result, dict):
            break
    if not (reply.ok and isinstance(reply.result, dict)):
        if forced is None and _stateless_after_all(session, reply) and _discover_again(audit):
            return True
        _old_transport(audit, reply)
        error = reply.error or {}
        raise ServerError(_prefix(audit) + f"the server rejected initialize: {reply.describe()}"
                          + (f" {quoted(error.get('message'), 200)}" if error.get("message") else ""))
    result = reply.result
    negotiated = result.get("protocolVersion")
    session.era = "handshake"
    session.version = negotiated if isinstance(negotiated, str) else (forced or LATEST_HANDSHAKE)
    if negotiated not in VERSIONS:
        audit.notes.append(f"the server negotiated protocol version {quoted(negotiated)}, which mcplint does not know")
    elif is_stateless(negotiated):
        audit.notes.append(f"the server answered initialize with the stateless version {negotiated}")
    elif forced and negotiated != forced:
        audit.notes.append(f"asked for protocol version {forced}, the server answered {negotiated}")
    if isinstance(session, HttpSession):
        _keep_session_id(audit, reply.header("mcp-session-id"))
    audit.capabilities = _dict(result.get("capabilities"))
    audit.server_info = _dict(result.get("serverInfo")) or None
    initialized = session.notify("notifications/initialized")
    detail = f"initialize: protocol {session.version}"
    if isinstance(session, HttpSession) and session.session_id:
        detail += ", stateful (Mcp-Session-Id)"
    audit.ran("session", detail)
    if isinstance(session, HttpSession):
        audit.ran("notification", f"notifications/initialized: {initialized.describe()}")
    return True


OLD_TRANSPORT_BOUND = 5.0  # seconds the GET waits for the first event of an HTTP+SSE stream


def _old_transport(audit: Audit, reply: Reply) -> None:
    """A POSTed initialize refused with a 4xx: is this a server of the HTTP+SSE transport that
    2025-03-26 replaced? The spec's own test (Transports, backward compatibility): a GET to the
    same URL opens an event stream whose first event is ``endpoint``. If so the audit ends
    naming it; mcplint speaks Streamable HTTP only."""
    session = audit.session
    if not isinstance(session, HttpSession) or reply.status is None or not 400 <= reply.status < 500:
        return
    try:
        got = session.send(None, method="GET", accept="text/event-stream", probe="old-transport",
                           read_bound=min(OLD_TRANSPORT_BOUND, session.timeout), first_event_only=True,
                           headers=session.headers_for(None))
    except ServerError:  # the GET failed in its own way: the rejected initialize is the error to show
        return
    http = got.http
    if got.timed_out or http is None or http.content_type != "text/event-stream" or http.first_event != "endpoint":
        return
    raise ServerError(f"{session.client.url}: the server speaks the HTTP+SSE transport of protocol 2024-11-05 "
                      f"(initialize was answered with HTTP {reply.status}, and a GET opened an event stream whose "
                      "first event is 'endpoint'), which 2025-03-26 replaced with Streamable HTTP; mcplint audits "
                      "Streamable HTTP and stdio only: audit the server over stdio, or at its Streamable HTTP "
                      "endpoint if it has one (often /mcp)")


def _keep_session_id(audit: Audit, value: str | None) -> None:
    """Echo the server's Mcp-Session-Id only when it is visible ASCII, as the spec requires: one with
    CR LF, a tab or a control character would go out as a folded or injected header. MCP823 reports it."""
    if value is None or session_id_ok(value):
        audit.session.session_id = value
        return
    audit.notes.append(f"the server's Mcp-Session-Id {quoted(value, 60)} has characters outside visible ASCII "
                       "(MCP823); mcplint does not send it back, so later requests carry no session id")


def _fatal_http(audit: Audit, reply: Reply, what: str) -> bool | None:
    """Over HTTP: a redirect ends the audit (exit 2); 401/403 at the start stops it
    after recording (the transcript still shows how the server turned us away)."""
    if not isinstance(audit.session, HttpSession) or reply.status is None:
        return None
    if 300 <= reply.status < 400:
        location = printable(reply.header("location") or "(no Location header)")[:500]  # the server's words
        raise ServerError(f"{audit.session.client.url}: the server redirected {what} to {location} "
                          f"(HTTP {reply.status}); mcplint never follows redirects: audit that URL instead")
    if reply.status in (401, 403) and what == "initialize":
        # A 403 is not always about credentials (playwright's Host check answers 403 "Access is only
        # allowed at localhost:8814"): speak of authentication only for 401 or an explicit challenge.
        challenged = reply.status == 401 or reply.header("www-authenticate") is not None
        given = audit.session.client.user_headers
        said = reply.error.get("message") if reply.error is not None else (reply.http.body if reply.http else "")
        audit.stopped = (f"the server answered initialize with HTTP {reply.status}"
                         + ("" if not challenged else "; the credentials given with --header were refused" if given
                            else "; it requires authentication: pass --header 'Authorization: Bearer $TOKEN'")
                         + (f"; it said {quoted(said.strip(), 200)}" if isinstance(said, str) and said.strip() else ""))
        audit.notes.append(audit.stopped)
        audit.ran("session", f"initialize: HTTP {reply.status}")
        return False
    return None


def _answered_nothing(audit: Audit, asked: list[str]) -> ServerError:
    """The server has not answered a single request (stdio: not a byte on stdout; HTTP: no response)."""
    waits = ", nor ".join(f"{'no answer ' if not i else ''}to {what} within {audit.timeout:g} s"
                          for i, what in enumerate(asked))
    message = f"the server answered nothing: {waits}; if it is slow to start, give it a longer timeout"
    if isinstance(audit.session, StdioSession):
        return audit.session.answered_nothing(message)
    return ServerError(_prefix(audit) + message)


def _prefix(audit: Audit) -> str:
    return f"{audit.session.client.url}: " if isinstance(audit.session, HttpSession) else ""


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}
