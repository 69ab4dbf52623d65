"""A manifest that declares no protocol version: which version to lint it at, which older
versions it may plausibly have been written for, and the lenient re-check that lowers a
finding one of those versions would not raise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcplint import versions
from mcplint.document.manifest import Manifest
from mcplint.findings import Severity
from mcplint.rule import Rule, RuleContext, Violation

if TYPE_CHECKING:
    from mcplint.engine import Plan


def infer_version(manifest: Manifest) -> str:
    """A tools/list result without `resultType` (required from 2026-07-28) came from
    a handshake-era server; everything else is linted at the newest version."""
    result = manifest.result
    if result is not None and "resultType" not in result[1]:
        return versions.LATEST_HANDSHAKE
    return versions.LATEST


def plausible_versions(manifest: Manifest) -> tuple[str, ...]:
    """Every version a document that declares none may have been written for: a result
    with `resultType` is 2026-07-28, one without is handshake-era, a bare tool list any;
    and the tool fields it uses date it (`annotations` from 2025-03-26, `icons` from
    2025-11-25). Computed once per document."""
    return manifest.memo("plausible-versions", lambda: _plausible_versions(manifest))


def _plausible_versions(manifest: Manifest) -> tuple[str, ...]:
    from mcplint.tool_fields import TOOL_FIELDS

    result = manifest.result
    if result is not None:
        if "resultType" in result[1]:
            return (versions.V2026_07_28,)
        candidates = versions.VERSIONS[: versions.VERSIONS.index(versions.LATEST_HANDSHAKE) + 1]
    else:
        candidates = versions.VERSIONS
    used = manifest.census().fields.intersection(TOOL_FIELDS)  # the keys of every tool object
    dated = tuple(v for v in candidates if all(v in TOOL_FIELDS[key] for key in used))
    return dated or candidates


_LOWER = {Severity.ERROR: Severity.WARNING, Severity.WARNING: Severity.INFO}


_VERSION = RuleContext.__dict__["version"]  # the slot, under the property below
_set = object.__setattr__


class VersionWatch(RuleContext):
    """A RuleContext that notes whether the rule read the version: one that never did finds
    the same at every version it applies to, so the lenient re-check need not run it again.
    (A property on ``version`` alone: rules read ``options`` at full slot speed.)"""

    __slots__ = ("read",)

    def __init__(self, version: str, options, path: str, doc, lock=None) -> None:
        _VERSION.__set__(self, version)
        _set(self, "options", options)
        _set(self, "path", path)
        _set(self, "doc", doc)
        _set(self, "lock", lock)
        _set(self, "read", False)

    @property
    def version(self) -> str:
        _set(self, "read", True)
        return _VERSION.__get__(self)


def lenient(rule: Rule, found: list, manifest: Manifest, plan: "Plan", version: str,
             version_read: bool = True) -> list:
    """An inferred version is a guess: a finding that an older plausible version would not
    raise (a draft-07 idiom, say) is lowered one level and says why. Only the rules that
    found something, and read the version to do it, are run again."""
    older = [v for v in plausible_versions(manifest) if v < version]
    if not older:
        return found
    level = rule.severity
    allowed_by: dict[str, str] = {}  # pointer -> the newest older version without the finding
    for other in reversed(older):
        seen: set[str] = set()
        if other in rule.versions and not version_read:
            continue  # the same findings at that version
        if other in rule.versions:  # else that version has no such requirement
            ctx = RuleContext(other, plan.options[rule.code], manifest.path, manifest, plan.lock)
            seen = {str(v.pointer) for v in rule.check(manifest, ctx)}
        for v in found:
            if str(v.pointer) not in seen:
                allowed_by.setdefault(str(v.pointer), other)
    if not allowed_by:
        return found  # no older version lacks any of them
    out = []
    for v in found:
        other = allowed_by.get(str(v.pointer))
        own = v.severity or level
        if other is None or own not in _LOWER:
            out.append(v)
            continue
        note = (f" (judged leniently: protocol version {version} was inferred and {other} allows this; "
                "pass --protocol-version to judge strictly)")
        out.append(Violation(v.pointer, v.message + note, v.at_key, v.related, _LOWER[own], v.within).bounded())
    return out
