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

    __slots__ = ("_path", "_plan", "_limit", "_kept", "_keys", "_counted", "_counts", "_first_left_out", "_ignores")

    def __init__(self, path: str, plan, limit: int = MAX_PER_RULE) -> None:
        self._path, self._plan, self._limit = path, plan, limit
        self._kept: list[tuple] = []
        self._keys: set[tuple] = set()  # (code, pointer, message) of each finding kept
        # Past a rule's cap a finding is only counted, and only its key's hash is held to drop a
        # repeat (two different findings with one hash would count as one: a count in a note).
        self._counted: set[int] = set()
        self._counts: dict[str, int] = {}
        self._first_left_out: dict[str, tuple] = {}
        self._ignores = bool(plan.per_file_ignores)  # else no pointer is ever written out to be matched

    def append(self, entry: tuple) -> None:
        rule, violation, _ = entry
        if self._admit(rule.code, violation.pointer, violation.message):
            self._take(rule.code, entry)

    def append_lazily(self, rule, pointer, message: str, make) -> None:
        """``append(make())`` for a finding at ``pointer`` with ``message``, calling ``make``
        only when the entry is kept or is its rule's first left out: a list page of 150,000
        bare tools yields 450,000 violations, each one moved and named for nothing."""
        if self._admit(rule.code, pointer, message):
            self._take(rule.code, make())

    def _admit(self, code: str, pointer, message: str) -> bool:
        """Count the finding unless it repeats one or is ignored; whether it is to be taken."""
        key = (code, pointer, message)
        if key in self._keys:
            return False
        count = self._counts.get(code, 0)
        if count < self._limit:
            if self._ignores and ignored(code, str(pointer), self._path, self._plan):
                return False
            self._keys.add(key)
        else:
            digest = hash(key)
            if digest in self._counted or self._ignores and ignored(code, str(pointer), self._path, self._plan):
                return False
            self._counted.add(digest)
            if code in self._first_left_out:
                self._counts[code] = count + 1
                return False
        self._counts[code] = count + 1
        return True

    def _take(self, code: str, entry: tuple) -> None:
        if self._counts[code] <= self._limit:
            self._kept.append(entry)
        else:
            self._first_left_out[code] = entry

    def extend(self, entries) -> None:
        for entry in entries:
            self.append(entry)

    def selected(self) -> tuple[list, dict]:
        """The findings kept, and per rule over its cap: its first left out and how many were."""
        return self._kept, {code: (entry, self._counts[code] - self._limit)
                            for code, entry in self._first_left_out.items()}
