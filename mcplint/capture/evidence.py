"""Which checklist items a capture gave no evidence for, and what was missing."""

from __future__ import annotations

from mcplint.checklist import ITEMS, missing_feature
from mcplint.rule import MANIFEST, TrafficRule


def unassessed(session, plan) -> dict[int, str]:
    """Checklist items this capture gave no evidence for, and what was missing."""
    traffic: dict[int, list[str]] = {}
    manifest_items: set[int] = set()
    for rule in plan.rules:
        for item in rule.checklist:
            if isinstance(rule, TrafficRule):
                traffic.setdefault(item, []).append(rule.needs)
            elif MANIFEST in rule.applies_to:
                manifest_items.add(item)
    missing: dict[int, str] = {}
    has_tools = session.seen["tools/list-result"] > 0
    for item in ITEMS:
        if why := missing_feature(item, session.version):
            missing[item] = why
            continue
        if item in session.assessed or (item in manifest_items and has_tools):
            continue
        if item in traffic:
            needs = sorted({n for n in traffic[item] if n})
            missing[item] = "the capture has no " + " or ".join(needs) if needs else "no evidence in the capture"
        elif item in manifest_items:
            missing[item] = "the capture has no tools/list result"
        else:
            missing[item] = "no selected rule checks it"
    return missing
