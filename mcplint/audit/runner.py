"""Drive one audit: connect, detect the era (handshake.py), negotiate, enumerate, probe, disconnect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from mcplint import progress
from mcplint.audit import probes
from mcplint.audit.handshake import restarted, establish
from mcplint.audit.listing import list_all
from mcplint.audit.safety import CallPlan, plan_calls
from mcplint.audit.session import HttpSession, Reply, Session
from mcplint.audit.stdio import ServerError
from mcplint.audit.stdio_session import KEEP_PER_EXCHANGE, StdioSession


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
            if not restarted(self, name):
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
            if not restarted(audit, "malformed-json"):
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


def _none_cleared(plan) -> str:
    """Why --call-read-only called nothing: the first tools' reasons (exa's read-only tools were
    refused for their names, which "no tool is annotated read-only" did not say)."""
    refused = plan.skipped()
    if not refused:
        return "the server lists no tools"
    shown = "; ".join(f"{name}: {why}" for name, why in list(refused.items())[:3])
    more = f"; and {len(refused) - 3} more" if len(refused) > 3 else ""
    return f"no tool passed the safety rules ({shown}{more})"
