"""A capture's findings as its rules yield them: duplicates dropped, per-file-ignores applied and
each rule's capped (its first MAX_PER_RULE kept, the first left out kept, the rest only counted)
as they come, so that a page of 300,000 tools never holds a million violations to report a
hundred of each rule. The outcome is ``findings.cap_per_rule`` of the deduplicated, unignored
findings in the order they came."""

from __future__ import annotations

from mcplint.findings import MAX_PER_RULE
from mcplint.per_file_ignores import ignored


class KeptFindings:
    """``append((rule, violation, tool))`` as the rules find; ``selected()`` at the end."""

    __slots__ = ("_path", "_plan", "_limit", "_kept", "_keys", "_counted", "_counts", "_first_left_out")

    def __init__(self, path: str, plan, limit: int = MAX_PER_RULE) -> None:
        self._path, self._plan, self._limit = path, plan, limit
        self._kept: list[tuple] = []
        self._keys: set[tuple] = set()  # (code, pointer, message) of each finding kept
        # Past a rule's cap a finding is only counted, and only its key's hash is held to drop a
        # repeat (two different findings with one hash would count as one: a count in a note).
        self._counted: set[int] = set()
        self._counts: dict[str, int] = {}
        self._first_left_out: dict[str, tuple] = {}

    def append(self, entry: tuple) -> None:
        rule, violation, _ = entry
        code = rule.code
        key = (code, violation.pointer, violation.message)
        if key in self._keys:
            return
        count = self._counts.get(code, 0)
        if count < self._limit:
            if ignored(code, str(violation.pointer), self._path, self._plan):
                return
            self._keys.add(key)
            self._kept.append(entry)
        else:
            digest = hash(key)
            if digest in self._counted or ignored(code, str(violation.pointer), self._path, self._plan):
                return
            self._counted.add(digest)
            self._first_left_out.setdefault(code, entry)
        self._counts[code] = count + 1

    def extend(self, entries) -> None:
        for entry in entries:
            self.append(entry)

    def selected(self) -> tuple[list, dict]:
        """The findings kept, and per rule over its cap: its first left out and how many were."""
        return self._kept, {code: (entry, self._counts[code] - self._limit)
                            for code, entry in self._first_left_out.items()}
