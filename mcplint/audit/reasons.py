"""Why an audit could not assess a checklist item, in the audit's own terms.

The audit's transcript is linted like any capture, and mcplint.capture.evidence says what the
capture lacked ("the capture has no tools/call result"). The audit knows why: its settings (the
flags given), what each probe did, which tools the safety rules cleared and how the server
answered the calls. ``explain`` rewrites the capture's reasons with that, so a footnote says
"2 tools called with placeholder arguments; the server rejected them" and never advises a flag
the user already gave. Reporters only see the reasons (``FileReport.unassessed``), not the audit.
"""

from __future__ import annotations

from collections import Counter

from mcplint import checklist
from mcplint.audit import probes
from mcplint.audit.safety import plan_calls
from mcplint.capture import evidence
from mcplint.summary import plural

# Items only tools can give evidence for (listing, calls, tool errors, input validation).
TOOL_ITEMS = frozenset({1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13, 14, 15, 16, 19, 20})
CALL_ITEMS = frozenset({12, 13, 14, 15, 19})  # need the result of a call the server answered
STDIO = {
    17: "the audit ran over stdio: authorization is an HTTP matter (a stdio server takes its credentials "
        "from the environment)",
    21: "the audit ran over stdio: the MCP-Protocol-Version header exists only over HTTP",
}
MAX_STOPPED = 300  # characters of the error that stopped the audit, in a footnote


def explain(audit, report) -> None:
    """Rewrite ``report.unassessed`` (the audit transcript's FileReport) with the audit's reasons."""
    kept = {checklist.NO_RULE, evidence.NO_TRAFFIC_RULE}
    for item, why in list(report.unassessed.items()):
        if why in kept or why == checklist.missing_feature(item, report.version):
            continue
        why = _reason(audit, item, why) or why
        report.unassessed[item] = why.replace("the capture has no ", "the audit saw no ", 1)
    # mcplint's own requests carry the version header, so a rule judging the client's requests
    # (MCP812) proves nothing about the server: only the header probe's answer does.
    if (21 not in report.unassessed and audit.session.transport == "http"
            and _probe(audit, "protocol-version-header") is None):
        report.unassessed[21] = _reason(audit, 21, "") or "the protocol-version-header probe did not run"


def _reason(audit, item: int, why: str) -> str | None:
    if why.startswith("no tool "):  # what the listing lacks (checklist.listing_gaps), whatever the audit did
        return None
    if audit.stopped:
        stopped = audit.stopped.splitlines()[0][:MAX_STOPPED] if audit.stopped.strip() else "no reason given"
        return stopped if stopped.startswith("the server answered") else f"the audit stopped early: {stopped}"
    if item in STDIO and audit.session.transport != "http":
        return STDIO[item]
    if item in TOOL_ITEMS and "tools" not in audit.capabilities:
        return "the server does not advertise tools"
    if evidence.NO_TOOLS in why:
        return why.replace(evidence.NO_TOOLS, "the server lists no tools")
    if evidence.NO_LISTING in why:
        return why.replace(evidence.NO_LISTING, "tools/list gave no result")
    if item in CALL_ITEMS:
        return _calls(audit, item)
    if item == 16:
        return _validation(audit)
    if item == 18:
        return _burst(audit)
    return None


def _calls(audit, item: int) -> str | None:
    """Why no call result of a tool the item is about was seen: none was cleared or called, or
    the server refused the placeholder arguments, failed or did not answer."""
    structured = item in checklist.STRUCTURED_ITEMS
    which = " with an outputSchema" if structured else ""
    names = {tool.get("name") for tool in audit.tools if isinstance(tool.get("name"), str)
             and (not structured or isinstance(tool.get("outputSchema"), dict))}
    outcomes = {name: got for name, got in audit.calls.items() if name in names}
    if not outcomes:
        if not audit.settings.call_read_only and names & {d.name for d in _read_only_plan(audit).call}:
            return f"no tool{which} was called: pass --call-read-only to call the read-only ones"
        return f"no tool{which} is cleared for calls (see the safety rules)"
    counts = Counter(outcomes.values())
    parts = []
    if counts[probes.REJECTED]:
        parts.append(f"{plural(counts[probes.REJECTED], 'tool')}{which} called with placeholder arguments; "
                     f"the server rejected {'it' if counts[probes.REJECTED] == 1 else 'them'}")
    if counts["failed"]:
        parts.append(f"the call of {_names(outcomes, 'failed')} failed")
    if counts["unanswered"]:
        parts.append(f"the call of {_names(outcomes, 'unanswered')} got no answer")
    parts += [f"{name}: {got}" for name, got in sorted(outcomes.items()) if got.startswith("not called")]
    return "; ".join(parts) or None  # answered: the capture's own reason says what the results lacked


def _read_only_plan(audit):
    return plan_calls(audit.tools, audit.settings.allow_calls, call_read_only=True)


def _names(outcomes: dict[str, str], got: str, shown: int = 3) -> str:
    names = sorted(name for name, value in outcomes.items() if value == got)
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def _validation(audit) -> str | None:
    if not audit.plan.validate:
        return "no tool is cleared for the input-validation probes (see the safety rules)"
    probe = _probe(audit, "input-validation")
    if probe is not None and probe.detail.startswith("no tool could be probed"):
        return "the input-validation probe found no schema with a required or typed property to violate"
    return None


def _burst(audit) -> str | None:
    if not audit.settings.rate_limit:
        return "pass --probe-rate-limit N to send a burst"
    probe = _probe(audit, "rate-limit")
    if probe is None:
        return None
    unthrottled_calls = probe.detail.startswith("no throttling signal in") and " calls of " in probe.detail
    tail = ", too few tool calls to judge" if unthrottled_calls else ""  # MCP806 judges a big enough burst
    return f"the rate-limit probe saw {probe.detail}{tail}"


def _probe(audit, name: str):
    return next((r for r in audit.results if r.name == name and r.ran), None)
