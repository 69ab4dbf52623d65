"""Baselines: record today's findings once, then report (and fail on) only new ones.

A finding matches a baseline entry by its fingerprint, which hashes the rule, the path
as shown (relative to the working directory), the logical pointer (the tool named, not
numbered) and the offending value: never a line number, so reformatting a manifest,
reordering keys or moving tools keeps findings matched, while changing the offending
value makes a new finding. Matching is per occurrence: two identical findings and one
entry leave one finding new.

The file is JSON, one entry per line, sorted, with readable fields beside the
fingerprint so that it reviews well in a pull request::

    {
      "version": 1,
      "tool": "mcplint",
      "findings": [
        {"rule": "MCP210", "name": "tool-description-missing", "path": "server.yaml",
         "pointer": "/tools/[get_user]", "message": "...", "fingerprint": "0c1f..."}
      ]
    }
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mcplint.errors import MCPLintError

VERSION = 1
MAX_BYTES = 32 << 20  # over 100,000 findings; a report keeps at most 25,000 (and JSON costs ~25x in memory)
_SHAPE = '{"version": 1, "tool": "mcplint", "findings": [...]}'


@dataclass
class Outcome:
    file: str
    matched: int = 0
    new: int = 0
    stale: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"file": self.file, "matched": self.matched, "stale": len(self.stale), "new": self.new}


def entry(finding) -> dict:
    return {
        "rule": finding.code,
        "name": finding.name,
        "path": finding.path,
        "pointer": logical_pointer(finding),
        "message": finding.message,
        "fingerprint": finding.fingerprint,
    }


def logical_pointer(finding) -> str:
    """The finding's pointer with the tool's index replaced by its name, as in the
    fingerprint (``/tools/3/description`` -> ``/tools/[get_user]/description``)."""
    pointer = finding.pointer
    if finding.tool is None:
        return pointer
    tokens = pointer.split("/")  # tokens[0] is "" (pointers start with "/")
    for prefix in ([""], ["", "tools"], ["", "result", "tools"]):  # array, result, JSON-RPC response
        depth = len(prefix)
        if len(tokens) > depth and tokens[:depth] == prefix and tokens[depth].isdigit():
            tokens[depth] = f"[{finding.tool}]"
            return "/".join(tokens)
    return pointer


def render(findings) -> str:
    entries = sorted(
        (entry(f) for f in findings),
        key=lambda e: (e["path"], e["rule"], e["pointer"], e["fingerprint"], e["message"]),
    )
    lines = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in entries)
    body = f"[\n{lines}\n  ]" if entries else "[]"
    return f'{{\n  "version": {VERSION},\n  "tool": "mcplint",\n  "findings": {body}\n}}\n'


def write(result, path: Path) -> int:
    """``--write-baseline``: every current finding to ``path``; the exit code."""
    if result.errors:
        print(f"mcplint: error: {path}: baseline not written: {len(result.errors)} file(s) could not be linted",
              file=sys.stderr)
        return 2
    from mcplint.safe_write import write_text

    write_text(path, render(result.findings), "baseline")
    print(f"mcplint: wrote {len(result.findings)} finding(s) to baseline {path}", file=sys.stderr)
    return 0


def load(path: Path) -> list[dict]:
    """The entries of a baseline file; any problem is a one-line MCPLintError."""
    from mcplint.document.loader import loads, read_bytes

    if not os.path.exists(path):
        raise MCPLintError(f"{path}: baseline file not found (create it with --write-baseline)")
    raw = read_bytes(str(path), MAX_BYTES)  # a FIFO or device: a bounded wait, then a one-line error
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise MCPLintError(f"{path}: cannot read baseline: {err}") from None
    if len(raw) > MAX_BYTES:
        raise MCPLintError(f"{path}: baseline is over {MAX_BYTES >> 20} MiB; not read")
    try:  # NaN, huge numbers, lone surrogates and deep nesting are one-line InputErrors
        data = loads(text, str(path))
    except json.JSONDecodeError as err:
        raise MCPLintError(f"{path}: baseline is not valid JSON: {err.msg} (line {err.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list) or "version" not in data \
            or data.get("tool", "mcplint") != "mcplint":
        raise MCPLintError(f"{path}: not an mcplint baseline (expected {_SHAPE})")
    if type(data["version"]) is not int or data["version"] != VERSION:
        shown = json.dumps(data["version"], ensure_ascii=False)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise MCPLintError(f"{path}: baseline version {shown} is not supported (this mcplint reads {VERSION})")
    for index, item in enumerate(data["findings"]):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("rule", "path", "fingerprint")):
            raise MCPLintError(f"{path}: findings[{index}]: an entry needs string 'rule', 'path' and 'fingerprint'")
    return data["findings"]


def apply(result, entries: list[dict], path: Path) -> Outcome:
    """Drop the findings the baseline knows (one entry absorbs one finding) and find
    stale entries. Entries count as stale only for files this run looked at, or whose
    file is gone, so a run over a few files (pre-commit) calls nothing else stale."""
    waiting: dict[str, list[dict]] = {}
    for item in entries:
        waiting.setdefault(item["fingerprint"], []).append(item)
    outcome = Outcome(str(path))
    kept = []
    for finding in result.findings:
        known = waiting.get(finding.fingerprint)
        if known:
            known.pop()
            outcome.matched += 1
        else:
            kept.append(finding)
    result.findings[:] = kept
    outcome.new = len(kept)
    looked_at = {f.path for f in result.files} | {p for p, _ in result.skipped}
    outcome.stale = [
        item for items in waiting.values() for item in items
        if item["path"] in looked_at or not _exists(item["path"])
    ]
    if outcome.matched:
        print(f"mcplint: {outcome.matched} finding(s) listed in the baseline {path} are not shown", file=sys.stderr)
    if outcome.stale:
        print(f"mcplint: {len(outcome.stale)} baseline entries no longer match any finding; "
              "refresh with --write-baseline", file=sys.stderr)
    return outcome


def _exists(path: str) -> bool:
    """``Path.exists`` for a path read from a file: NUL bytes and over-long names are not there.
    A path outside the working directory (absolute, or climbing with "..") is never looked up, and
    counts as there: a baseline may not probe the file system (`/etc/shadow`: stale or not?), nor
    make mcplint touch an automounted `/net/host/...`."""
    try:
        given = Path(path)
        if given.is_absolute() or ".." in given.parts:
            return True
        return given.exists()
    except (OSError, ValueError):
        return False


def load_for_check(baseline: Path | None, write_baseline: Path | None) -> list[dict] | None:
    """The entries ``--baseline`` names (None without one), read before any linting."""
    if baseline is not None and write_baseline is not None:
        raise MCPLintError(
            "--baseline and --write-baseline cannot be combined; --write-baseline alone rewrites the file"
        )
    return load(baseline) if baseline is not None else None
