"""Tool pinning: a lock file with a canonical hash and a copy of every tool definition,
and the comparison of a manifest against it (tools added, removed or changed).

The lock (``mcplint.lock``, written by ``mcplint lock``) is JSON, sorted and indented so that
a change to it reads well in a code review::

    {
      "generator": "mcplint lock",
      "lockfileVersion": 1,
      "manifests": {
        "servers/weather.json": {
          "tools": {
            "get_forecast": {"definition": {...}, "sha256": "<hex>"}
          }
        }
      }
    }

Manifests are keyed by their path relative to the working directory (as reports show it), tools
by name. The hash is the SHA-256 of the definition's canonical JSON (sorted keys, no
whitespace, UTF-8), so reformatting a manifest or reordering its tools changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Iterator

from mcplint.document.loader import loads, read_bytes
from mcplint.document.pointer import Pointer
from mcplint.errors import MCPLintError

LOCK_VERSION = 1
# Pinned definitions of ~15,000 tools. Parsed JSON costs ~25x in memory: 64 MiB of "{}," made
# 1.7 GB (attack round 5); 16 MiB stays near 400 MB.
MAX_LOCK_BYTES = 16 << 20
LOCK_KEYS = frozenset({"generator", "lockfileVersion", "manifests"})
MAX_DEPTH = 256  # nesting of a pinned definition: deeper ones could not be read back near the parser's limit
DEFAULT_LOCK = "mcplint.lock"
GENERATOR = "mcplint lock"
PIN_RULES = ("MCP501", "MCP502", "MCP503")
MAX_LISTED = 6  # changes spelled out in a finding's message; all of them go in `related`


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def digest(definition: Any) -> str:
    # surrogatepass: loaded documents hold no lone surrogates, but a hash must never crash
    return hashlib.sha256(canonical(definition).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Pinned:
    sha256: str
    definition: dict


@dataclass
class Lock:
    path: str  # as named by the user, for messages
    manifests: dict[str, dict[str, Pinned]] = field(default_factory=dict)  # path -> name -> Pinned


# -- writing ---------------------------------------------------------------------------

def pin(manifest) -> tuple[dict[str, Pinned], list[str]]:
    """The manifest's tools by name (the first of duplicates wins), and the duplicated names.
    Tools without a string name cannot be pinned (MCP201 reports them)."""
    tools: dict[str, Pinned] = {}
    duplicates: list[str] = []
    for _, tool in manifest.tools():
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        if name in tools:
            duplicates.append(name)
        else:
            tools[name] = Pinned(digest(tool), tool)
    return tools, duplicates


def depth(value: Any) -> int:
    """How deeply ``value`` nests arrays and objects (iterative: it may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in item)
    return deepest


def dumps(lock: Lock) -> str:
    data = {
        "generator": GENERATOR,
        "lockfileVersion": LOCK_VERSION,
        "manifests": {
            path: {"tools": {name: {"definition": p.definition, "sha256": p.sha256} for name, p in tools.items()}}
            for path, tools in lock.manifests.items()
        },
    }
    try:  # allow_nan=False: a lock must stay JSON (never `Infinity`), whatever reached it
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, default=str, allow_nan=False) + "\n"
    except ValueError as err:
        raise MCPLintError(f"{lock.path}: lock not written: a tool definition holds {err}") from None


# -- reading ---------------------------------------------------------------------------

def load(path: str | os.PathLike) -> Lock:
    """Read and verify a lock file; every problem is a one-line MCPLintError."""
    shown = str(path)
    if not os.path.exists(path):
        raise MCPLintError(f"{shown}: lock file not found (write one with `mcplint lock PATH...`)")
    raw = read_bytes(shown, MAX_LOCK_BYTES)  # a FIFO or device: a bounded wait, then a one-line error
    if len(raw) > MAX_LOCK_BYTES:
        raise MCPLintError(f"{shown}: lock file is over {MAX_LOCK_BYTES >> 20} MiB; not read")
    try:
        data = loads(raw.decode("utf-8-sig"), shown)  # NaN, huge numbers, surrogates, depth: InputError
    except UnicodeDecodeError:
        raise MCPLintError(f"{shown}: lock file is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise MCPLintError(f"{shown}:{err.lineno}:{err.colno}: invalid JSON in lock file: {err.msg}") from None
    try:
        return parse(data, shown)
    except RecursionError:  # hashing a definition nested near the parser's limit
        raise MCPLintError(f"{shown}: lock file is nested too deeply") from None


def parse(data: Any, shown: str) -> Lock:
    def bad(why: str) -> MCPLintError:
        return MCPLintError(f"{shown}: not a valid mcplint lock file: {why} (regenerate it with `mcplint lock`)")

    if not isinstance(data, dict) or "lockfileVersion" not in data:
        raise bad("expected an object with lockfileVersion and manifests")
    if type(data["lockfileVersion"]) is not int or data["lockfileVersion"] != LOCK_VERSION:
        raise bad(f"lockfileVersion {show(data['lockfileVersion'])} is not {LOCK_VERSION}")
    unknown = sorted(set(data) - LOCK_KEYS)
    if unknown:
        raise bad(f"unknown key {show(unknown[0])}")
    manifests = data.get("manifests")
    if not isinstance(manifests, dict):
        raise bad("'manifests' is not an object")
    lock = Lock(shown)
    for path, entry in manifests.items():
        tools = entry.get("tools") if isinstance(entry, dict) else None
        if not isinstance(tools, dict):
            raise bad(f"manifests.{label(path)}.tools is not an object")
        pinned = lock.manifests[path] = {}
        for name, item in tools.items():
            where = f"manifests.{label(path)}.tools.{label(name)}"
            if not isinstance(item, dict) or not isinstance(item.get("definition"), dict) \
                    or not isinstance(item.get("sha256"), str):
                raise bad(f"{where} needs a 'definition' object and a 'sha256' string")
            if digest(item["definition"]) != item["sha256"]:
                raise bad(f"{where}: the sha256 does not match the definition (edited by hand?)")
            pinned[name] = Pinned(item["sha256"], item["definition"])
    return lock


def label(key: str) -> str:
    """A key from the file as it reads in a one-line message: quoted when long or unprintable."""
    return key if key.isprintable() and len(key) <= 60 else show(key, 60)


def from_manifest(manifest, lock_path: str = "the lock") -> Lock:
    """A lock pinning one manifest, in memory (for tests and documentation examples)."""
    return Lock(lock_path, {manifest.path: pin(manifest)[0]})


# -- comparing -------------------------------------------------------------------------

_MISSING = object()


@dataclass(frozen=True)
class Change:
    path: tuple  # inside the tool definition, e.g. ("inputSchema", "properties", "city")
    kind: str  # "added" | "removed" | "changed"
    old: Any = None
    new: Any = None


@dataclass
class Changed:
    pointer: Pointer  # the tool in the manifest
    name: str
    changes: list[Change]


@dataclass
class Comparison:
    pinned: bool  # the lock has an entry for this manifest
    added: list[tuple[Pointer, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[Changed] = field(default_factory=list)


def compare(doc, lock: Lock) -> Comparison:
    """The manifest against the lock, computed once per document for the three pin rules."""
    return doc.memo(("pinning", id(lock)), lambda: _compare(doc, lock))


def _compare(doc, lock: Lock) -> Comparison:
    pinned = lock.manifests.get(doc.path)
    result = Comparison(pinned is not None)
    pinned = pinned or {}
    seen: set[str] = set()
    for ptr, tool in doc.tools():
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        seen.add(name)
        before = pinned.get(name)
        if before is None:
            result.added.append((ptr, name))
        elif digest(tool) != before.sha256:
            result.changed.append(Changed(ptr, name, list(diff(before.definition, tool))))
    result.removed = sorted(name for name in pinned if name not in seen)
    return result


def diff(old: Any, new: Any, path: tuple = ()) -> Iterator[Change]:
    """Leaf-level differences: objects member by member, arrays of equal length item by item."""
    if isinstance(old, dict) and isinstance(new, dict):
        order = _field_order if not path else str  # a tool's fields in reading order
        for key in sorted(old.keys() | new.keys(), key=order):
            before, after = old.get(key, _MISSING), new.get(key, _MISSING)
            if before is _MISSING:
                yield Change((*path, key), "added", new=after)
            elif after is _MISSING:
                yield Change((*path, key), "removed", old=before)
            else:
                yield from diff(before, after, (*path, key))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (before, after) in enumerate(zip(old, new)):
            yield from diff(before, after, (*path, index))
    elif canonical(old) != canonical(new):
        yield Change(path, "changed", old, new)


_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def _field_order(key) -> tuple[int, str]:
    return (_FIELDS.index(key) if key in _FIELDS else len(_FIELDS), str(key))


def location(tool_ptr: Pointer, change: Change) -> Pointer:
    """Where the change is in the new manifest (a removed member: its parent)."""
    path = change.path[:-1] if change.kind == "removed" else change.path
    return Pointer((*tool_ptr, *path))


def common_ancestor(pointers: list[Pointer]) -> Pointer:
    first = pointers[0]
    depth = len(first)
    for other in pointers[1:]:
        depth = min(depth, len(other))
        for i in range(depth):
            if str(first[i]) != str(other[i]):
                depth = i
                break
    return Pointer(first[:depth])


def describe(change: Change) -> str:
    """One change as text: ``description "…old…" → "…new…"``,
    ``inputSchema /properties/path added ({"type":"string"})``, ``annotations readOnlyHint true → false``."""
    head, rest = change.path[0], change.path[1:]
    if not rest:
        where = str(head)
    elif head == "annotations":
        where = f"annotations {'.'.join(map(str, rest))}"
    else:
        where = f"{head} {Pointer(rest)}"
    if change.kind == "added":
        return f"{where} added ({show(change.new)})"
    if change.kind == "removed":
        return f"{where} removed"
    if isinstance(change.old, str) and isinstance(change.new, str):
        old, new = shorten_pair(change.old, change.new)
        return f"{where} {old} → {new}"
    return f"{where} {show(change.old)} → {show(change.new)}"


def summary(changes: list[Change]) -> str:
    texts = [describe(c) for c in changes[:MAX_LISTED]]
    if len(changes) > MAX_LISTED:
        texts.append(f"and {len(changes) - MAX_LISTED} more change(s)")
    return "; ".join(texts)


def show(value: Any, width: int = 40) -> str:
    text = canonical(value) if not isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def shorten_pair(old: str, new: str, width: int = 80, context: int = 20) -> tuple[str, str]:
    """Both strings quoted, cut to the part that differs plus a little context on each side,
    so that text appended at the end of a long description is what the reader sees."""
    prefix = len(os.path.commonprefix([old, new]))
    limit = min(len(old), len(new)) - prefix
    suffix = 0
    while suffix < limit and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    start = max(0, prefix - context)
    if start:  # begin the context at a word
        space = old.find(" ", start, prefix)
        start = space + 1 if space != -1 else start
    keep_end = max(0, suffix - context)

    def cut(text: str) -> str:
        middle = text[start: len(text) - keep_end]
        clipped = len(middle) > width
        middle = middle[:width] if clipped else middle
        body = json.dumps(middle, ensure_ascii=False)[1:-1]
        return f'"{"…" if start else ""}{body}{"…" if clipped or keep_end else ""}"'

    return cut(old), cut(new)


# -- the hooks in `mcplint check --lock` -----------------------------------------------------

def load_for_check(path, plan) -> Lock:
    """The lock for a check run; says so when no pin rule is selected (it would do nothing)."""
    lock = load(path)
    if not plan.codes & set(PIN_RULES):
        print(f"mcplint: warning: --lock {path}: rules {', '.join(PIN_RULES)} are not selected, "
              "so the lock is not compared", file=sys.stderr)
    return lock


def report_vanished(lock: Lock | None, files) -> None:
    """Pinned manifests that no longer exist have no place for a finding: say so on stderr."""
    if lock is None:
        return
    linted = {f.path for f in files}
    for path in sorted(lock.manifests):
        if path not in linted and not os.path.exists(path):
            count = len(lock.manifests[path])
            print(f"mcplint: warning: {lock.path} pins {count} tool(s) in {path}, which no longer exists "
                  "(run `mcplint lock` again if it was removed on purpose)", file=sys.stderr)
