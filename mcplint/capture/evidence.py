"""Which checklist items a capture gave no evidence for, and what was missing.

An item passes only on evidence (see mcplint.checklist): the listing items need a tools/list
result with a tool that has the item's subject, the behaviour items need a traffic rule that
judged traffic (``session.assess``), and item 19 needs both.
"""

from __future__ import annotations

from mcplint import checklist
from mcplint.rule import CAPTURE, MANIFEST, TrafficRule

NO_TOOLS = "the capture's tools/list results list no tools"
NO_LISTING = "the capture has no tools/list result"
NO_TRAFFIC_RULE = "no selected rule checks it in traffic"
# Access control and the version header exist only over HTTP (a stdio server takes its
# credentials from the environment: the authorization spec is for HTTP transports).
NOT_HTTP = {
    17: "the capture holds no HTTP exchange: authorization is an HTTP matter (a stdio server takes its "
        "credentials from the environment)",
    21: "the capture holds no HTTP exchange: the MCP-Protocol-Version header exists only over HTTP",
}


def unassessed(session, plan) -> dict[int, str]:
    """Checklist items this capture gave no evidence for, and what was missing."""
    traffic: dict[int, list[str]] = {}
    manifest_items: set[int] = set()
    for rule in plan.rules:
        for item in rule.checklist:
            if isinstance(rule, TrafficRule):
                if CAPTURE in rule.applies_to and session.version in rule.versions:
                    traffic.setdefault(item, []).append(rule.needs)
            elif MANIFEST in rule.applies_to:
                manifest_items.add(item)
    listed = session.seen["tools/list-result"] > 0
    tools = [tool for _, tool in session.tools.values()]
    gaps = checklist.listing_gaps(tools, session.version, NO_TOOLS) if listed else {}
    missing: dict[int, str] = {}
    for item in checklist.ITEMS:
        if why := checklist.missing_feature(item, session.version):
            missing[item] = why
        elif item not in traffic and item not in manifest_items:
            missing[item] = checklist.NO_RULE
        elif reasons := _missing(item, session, traffic, manifest_items, listed, gaps):
            missing[item] = "; ".join(reasons)
    return missing


def _missing(item: int, session, traffic, manifest_items, listed: bool, gaps: dict[int, str]) -> list[str]:
    """What the item still lacks: the listing half, the traffic half, or both."""
    reasons = []
    if item in checklist.LISTING_ITEMS and item in manifest_items:
        if not listed:
            reasons.append(NO_LISTING)
        elif item in gaps:
            reasons.append(gaps[item])
    if item in checklist.TRAFFIC_ITEMS and item not in session.assessed:
        if item in checklist.HTTP_ITEMS and session.transport != "http":
            reasons.append(NOT_HTTP[item])
        elif item not in traffic:
            reasons.append(NO_TRAFFIC_RULE)
        elif item in checklist.STRUCTURED_ITEMS and item in gaps:
            reasons.append(gaps[item])  # no outputSchema, or no tool: no call result can show it
        else:
            needs = sorted({_bare(n) for n in traffic[item] if n})
            reasons.append("the capture has no " + " or ".join(needs) if needs else "no evidence in the capture")
    if len(reasons) == 2 and reasons[0] == NO_LISTING and reasons[1].startswith("the capture has no "):
        return [f"{NO_LISTING} and no {reasons[1].removeprefix('the capture has no ')}"]  # item 19
    return reasons


def _bare(needs: str) -> str:
    """A rule's ``needs`` without its article, to follow "the capture has no"."""
    for article in ("a ", "an "):
        if needs.startswith(article):
            return needs[len(article):]
    return needs
