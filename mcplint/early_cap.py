"""Capping a rule's findings at 100 per file before locating them: for a JSON manifest the
parsed data alone tells which come first, so only the kept ones (and the first left out)
are located in the text, and only those can be first are ranked."""

from __future__ import annotations

from collections import Counter

from mcplint import suppressions
from mcplint.document.loader import Document
from mcplint.document.manifest import Manifest
from mcplint.document.order import leading, start_key
from mcplint.findings import MAX_PER_RULE, Finding, cap_per_rule, left_out_note
from mcplint.per_file_ignores import ignored


def capped_in_data(raw: list, document: Document, limit: int = MAX_PER_RULE) -> bool:
    """Whether a rule found more than the cap and the data alone can tell which findings come
    first: JSON without duplicate keys (object members in text order) and no suppression
    comments (those need every finding's line)."""
    if len(raw) <= limit or document.format != "json" or document.duplicate_keys or suppressions.present(document):
        return False
    counts = Counter(rule.code for rule, _ in raw)
    return max(counts.values()) > limit


def capped_early(raw: list, manifest: Manifest, plan, finding, limit: int = MAX_PER_RULE) -> list[Finding]:
    """``capped`` of all the findings, having located only the ones it keeps: the others are
    ranked by where their spans start (``start_key``), the order ``capped`` sorts them in.
    ``finding(rule, violation, manifest, plan, identified=...)`` makes a located Finding."""
    document = manifest.document
    path = document.path
    if plan.per_file_ignores:
        entries = [(rule, v, str(v.pointer)) for rule, v in raw]
        entries = [e for e in entries if not ignored(e[0].code, e[2], path, plan)]
    else:  # the pointers as text only for the findings ranked below
        entries = [(rule, v, None) for rule, v in raw]
    data, orders = document.data, {}
    by_rule: dict[str, list] = {}
    for entry in entries:
        by_rule.setdefault(entry[0].code, []).append(entry)
    counts = Counter({code: len(found) for code, found in by_rule.items()})
    array, length = _tools_array(manifest)
    ranked = [e for found in by_rule.values() for e in leading(found, _pointer_of, array, length, limit + 1)]
    ordered = sorted(ranked, key=lambda e: (start_key(data, e[1].pointer, e[1].at_key, orders), e[0].code,
                                            e[2] if e[2] is not None else str(e[1].pointer)))
    kept, left_out = cap_per_rule(ordered, lambda e: e[0].code, limit, counts)
    if not left_out:  # per-file-ignores left few enough: as ``capped``, in the rules' order
        kept = entries
    first_left_out = [entry for entry, _ in left_out.values()]
    located = kept + first_left_out
    document.source_map.prepare([v.pointer for _, v, _ in located] + [p for _, v, _ in located for p, _ in v.related])
    findings = [finding(rule, v, manifest, plan, identified=True) for rule, v, _ in kept]
    return findings + [left_out_note(finding(rule, v, manifest, plan), count, limit)
                       for (rule, v, _), (_, count) in zip(first_left_out, left_out.values())]


def _pointer_of(entry) -> tuple:
    return entry[1].pointer


def _tools_array(manifest: Manifest) -> tuple[tuple, int]:
    """The tools array's pointer and length ((), 0 when there is none): the findings of a
    tool rule run through its entries in order."""
    if manifest.shape == "tool" or ("tools" not in manifest.lists and manifest.shape != "array"):
        return (), 0
    try:
        tools = manifest.value_at(manifest.tools_pointer)
    except (KeyError, IndexError, TypeError, ValueError):
        return (), 0
    return tuple(manifest.tools_pointer), len(tools) if isinstance(tools, list) else 0
