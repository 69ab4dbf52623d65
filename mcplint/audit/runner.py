"""Drive one audit: connect, detect the era, negotiate, enumerate, probe, disconnect.

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

from dataclasses import dataclass, field
from typing import Any, Callable

from mcplint import progress
from mcplint.audit import probes
from mcplint.audit.listing import list_all
from mcplint.audit.safety import CallPlan, plan_calls
from mcplint.audit.session import CLIENT_INFO, HttpSession, Reply, Session
from mcplint.audit.stdio_session import KEEP_PER_EXCHANGE, StdioSession
from mcplint.audit.server_text import printable, quoted
from mcplint.audit.stdio import ServerError
from mcplint.capture.http import session_id_ok
from mcplint.versions import LATEST, LATEST_HANDSHAKE, VERSIONS, is_stateless



@dataclass
class Settings:
    timeout: float = 10.0
    protocol_version: str | None = None
    call_read_only: bool = False
    allow_calls: tuple[str, ...] = ()
    rate_limit: int | None = None


@dataclass
class ProbeResult:
    name: str
    items: tuple[int, ...]
    detail: str
    ran: bool = True

    def as_dict(self) -> dict:
        return {"name": self.name, "status": "ran" if self.ran else "skipped", "items": list(self.items),
                "detail": self.detail}


@dataclass
class Audit:
    session: Session
    settings: Settings
    log: Callable[[str], None] = lambda line: None
    capabilities: dict = field(default_factory=dict)
    server_info: dict | None = None
    tools: list[dict] = field(default_factory=list)
    listed: dict[str, list] = field(default_factory=dict)  # every page of tools, prompts, resources, templates
    plan: CallPlan = field(default_factory=CallPlan)
    results: list[ProbeResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # things the user should know (stderr)
    calls: dict[str, str] = field(default_factory=dict)  # tool -> what its valid-argument call got (probes)
    stopped: str | None = None  # why the audit could not go on (e.g. authentication required)
    listed_values: int = 0  # JSON values in the list pages kept (all methods together)

    @property
    def timeout(self) -> float:
        return self.settings.timeout

    # -- requests ------------------------------------------------------------------
    def request(self, method: str, params: dict | None = None, *, probe: str | None = None,
                check: bool = True, **options) -> Reply:
        reply = self.session.request(method, params, probe=probe, **options)
        if check:
            self.check_alive(reply, method)
        return reply

    def check_alive(self, reply: Reply, what: str) -> None:
        """A request went unanswered: is the server merely silent on it, or gone?"""
        if not reply.timed_out:
            return
        if not self.sync(what, raise_on_timeout=False):
            raise self._stopped(what)

    def sync(self, what: str, raise_on_timeout: bool = True) -> bool:
        """A cheap request whose answer proves the server still reads and answers."""
        method = "server/discover" if self.session.era == "modern" else "ping"
        reply = self.session.request(method, None, probe="sync")
        if reply.timed_out and raise_on_timeout:
            raise self._stopped(what)
        return not reply.timed_out

    def _stopped(self, what: str) -> ServerError:
        if isinstance(self.session, StdioSession):
            return self.session.stopped_answering(what)
        return ServerError(f"{self.session.client.url}: the server stopped answering: "
                           f"no answer to {what} within {self.timeout:g} s")

    # -- bookkeeping -----------------------------------------------------------------
    def ran(self, name: str, detail: str) -> None:
        items = probes.ITEMS.get(name, ())
        if name == "session" and not isinstance(self.session, HttpSession):
            items = ()  # access control and the version header are HTTP matters
        self.results.append(ProbeResult(name, items, detail))
        self.log(f"{name}: {detail}")

    def skipped(self, name: str, why: str) -> None:
        self.results.append(ProbeResult(name, probes.ITEMS.get(name, ()), why, ran=False))
        self.log(f"{name}: skipped ({why})")

    def probe(self, name: str, function, *args) -> None:
        progress.stage(f"probe: {name}")
        try:
            detail = function(self, *args)
        except ServerError:
            if not _restarted(self, name):
                raise
            detail = "the server exited (MCP645); mcplint started it again"
        self.ran(name, detail)


def run(audit: Audit) -> Audit:
    """The whole session; the caller closes the transport (also on errors)."""
    if not establish(audit):
        return audit
    enumerate_all(audit)
    run_probes(audit)
    finish(audit)
    if isinstance(audit.session, HttpSession) and audit.session.redirect:
        audit.notes.append(audit.session.redirect)  # a probe was redirected: recorded, not followed
    dropped = getattr(audit.session, "dropped", 0)
    if dropped:
        audit.notes.append(f"the server sent {dropped} message(s) that were neither recorded nor checked (more than "
                           f"{KEEP_PER_EXCHANGE} while mcplint waited for one answer)")
    return audit


# -- era, version, handshake ------------------------------------------------------------
def establish(audit: Audit) -> bool:
    session, forced = audit.session, audit.settings.protocol_version
    stdio = isinstance(session, StdioSession)
    progress.stage("starting the server" if stdio and not session.heard else "", requests=True)
    if forced is None or is_stateless(forced):
        version = forced or LATEST
        try:
            reply = session.request("server/discover", None, version=version)
        except ServerError:
            if forced is not None or not _restarted(audit, "server/discover"):
                raise
            return _initialize(audit, forced)
        if reply.timed_out and not session.heard and (forced is not None or not stdio):
            raise _answered_nothing(audit, ["server/discover"])
        progress.stage("no answer to server/discover" if reply.timed_out else "", requests=True)
        _fatal_http(audit, reply, "server/discover")
        result = reply.result if reply.ok and isinstance(reply.result, dict) else None
        supported = result.get("supportedVersions") if result is not None else None
        if isinstance(supported, list) and version in supported:
            session.era, session.version = "modern", version
            audit.capabilities = _dict(result.get("capabilities"))
            meta = _dict(result.get("_meta"))
            audit.server_info = _dict(meta.get("io.modelcontextprotocol/serverInfo")) or None
            audit.ran("session", f"server/discover: stateless protocol {version}")
            return True
        if forced is not None:
            raise ServerError(_prefix(audit) + f"server/discover at {forced} failed ({reply.describe()}); "
                              "the server does not speak the stateless protocol")
        audit.log(f"server/discover: {reply.describe()}; falling back to initialize")
    return _initialize(audit, forced)


def _restarted(audit: Audit, what: str) -> bool:
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
            if offer == offers[-1] or not _restarted(audit, "initialize"):
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


# -- listings -------------------------------------------------------------------------------
def enumerate_all(audit: Audit) -> None:
    caps = audit.capabilities
    listed = audit.listed
    if "tools" in caps:
        listed["tools"] = list_all(audit, "tools/list", "tools")
        audit.tools = [t for t in listed["tools"] if isinstance(t, dict)]
        audit.ran("tools/list", f"{len(audit.tools)} tool(s)")
    else:
        audit.skipped("tools/list", "the server does not advertise the tools capability")
    if "prompts" in caps:
        listed["prompts"] = list_all(audit, "prompts/list", "prompts")
        audit.log(f"prompts/list: {len(listed['prompts'])} prompt(s)")
    if "resources" in caps:
        listed["resources"] = list_all(audit, "resources/list", "resources")
        listed["resourceTemplates"] = list_all(audit, "resources/templates/list", "resourceTemplates")
        audit.log(f"resources/list: {len(listed['resources'])} resource(s), "
                  f"{len(listed['resourceTemplates'])} template(s)")
    audit.plan = plan_calls(audit.tools, audit.settings.allow_calls, audit.settings.call_read_only)
    for name in audit.plan.unknown_allowed:
        audit.notes.append(f"--allow-calls {name}: the server has no tool of that name")


# -- probes ---------------------------------------------------------------------------------
def run_probes(audit: Audit) -> None:
    session, settings = audit.session, audit.settings
    http = isinstance(session, HttpSession)
    modern = session.era == "modern"
    audit.probe("unknown-method", probes.unknown_method)
    if "tools" in audit.capabilities:
        audit.probe("unknown-tool", probes.unknown_tool)
    else:
        audit.skipped("unknown-tool", "the server does not advertise tools")
    if http:
        audit.probe("malformed-json", probes.malformed_json_http)
        audit.probe("invalid-request", probes.invalid_request_http)
    else:
        progress.stage("probe: malformed-json, invalid-request")
        try:
            malformed, invalid = probes.bad_messages_stdio(audit)
        except ServerError:
            if not _restarted(audit, "malformed-json"):
                raise
            malformed = invalid = "the server exited (MCP645); mcplint started it again"
        audit.ran("malformed-json", malformed)
        audit.ran("invalid-request", invalid)
    if modern:
        audit.skipped("ping", "ping does not exist in the stateless protocol")
        audit.probe("unsupported-version", probes.unsupported_version_modern)
        audit.probe("missing-meta", probes.missing_meta)
    else:
        audit.probe("ping", probes.ping)
        if settings.protocol_version:
            audit.skipped("unsupported-version", "--protocol-version fixes the version initialize offers")
    if http:
        if probes.header_version_applies(session):
            audit.probe("protocol-version-header", probes.protocol_version_header)
        else:
            audit.skipped("protocol-version-header", f"the header is not required at {session.version}")
        audit.probe("foreign-origin", probes.foreign_origin)
        if probes.header_version_applies(session):
            audit.probe("batch", probes.batch)
        else:
            audit.skipped("batch", f"batches are allowed at {session.version}")
        if modern:
            audit.probe("notification", probes.notification)
        if session.client.user_headers:
            audit.probe("no-credentials", probes.no_credentials)
        else:
            audit.skipped("no-credentials", "no credentials were given with --header")
    if audit.plan.validate:
        audit.probe("input-validation", probes.input_validation)
    else:
        audit.skipped("input-validation", "no tool is cleared for calls (see the safety rules)")
    explicit = [d for d in audit.plan.call if d.name in settings.allow_calls]
    by_annotation = [d for d in audit.plan.call if d.name not in settings.allow_calls]
    if explicit:
        audit.probe("allow-calls", probes.valid_calls, explicit, "allow-calls")
    if settings.call_read_only:
        if by_annotation:
            audit.probe("call-read-only", probes.valid_calls, by_annotation, "call-read-only")
        else:
            audit.skipped("call-read-only", _none_cleared(audit.plan))
    else:
        audit.skipped("call-read-only", "pass --call-read-only to call read-only tools")
    if settings.rate_limit:
        audit.probe("rate-limit", probes.rate_limit, settings.rate_limit)
    else:
        audit.skipped("rate-limit", "pass --probe-rate-limit N to send a burst")


def finish(audit: Audit) -> None:
    session = audit.session
    if not isinstance(session, HttpSession):
        return
    audit.probe("get-stream", probes.get_stream)
    if session.session_id is not None:
        audit.probe("delete-session", probes.delete_session)


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _none_cleared(plan) -> str:
    """Why --call-read-only called nothing: the first tools' reasons (exa's read-only tools were
    refused for their names, which "no tool is annotated read-only" did not say)."""
    refused = plan.skipped()
    if not refused:
        return "the server lists no tools"
    shown = "; ".join(f"{name}: {why}" for name, why in list(refused.items())[:3])
    more = f"; and {len(refused) - 3} more" if len(refused) > 3 else ""
    return f"no tool passed the safety rules ({shown}{more})"
