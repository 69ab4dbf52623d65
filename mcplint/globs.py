"""Include, exclude and per-file-ignores globs: gitignore-like patterns matched in time linear in
the path's length, whatever the pattern (a lazily built DFA)."""

from __future__ import annotations


def glob_to_regex(pattern: str) -> "Glob":
    """gitignore-like globs: `*` within a segment, `**` across segments; a pattern
    without `/` matches at any depth (and a match covers everything below it).
    The name is historical: the result is a ``Glob`` with the ``match`` of a regex."""
    return Glob(pattern)


_LITERAL, _ONE, _STAR, _ANY, _DIRS = range(5)  # c, ?, *, ** (across /), **/ (zero or more folders)
_MAX_STEPS = 100_000  # cached transitions per glob; cleared when full, so memory stays bounded


class Glob:
    """A compiled include/exclude glob matched by a lazily built DFA: time linear in
    the path's length whatever the pattern (a backtracking regex of twelve `**/`
    took hours on a deep path). Matches exactly what the earlier regex translation
    ``(?:.*/)?`` for `**/`, ``.*`` for `**`, ``[^/]*`` for `*`, ``[^/]`` for `?`,
    anchored at the start and followed by ``(?:/.*)?$`` matched."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        if "/" not in pattern.rstrip("/"):
            pattern = "**/" + pattern
        self._tokens = _glob_tokens(pattern)
        self._end = 2 * len(self._tokens)  # the whole pattern matched
        self._rest = self._end + 1  # matched, then "/" and anything below
        self._sets: list[frozenset[int]] = []
        self._ids: dict[frozenset[int], int] = {}
        self._steps: dict[tuple[int, str], int] = {}
        self._start = self._intern(self._closure({0}))

    def __repr__(self) -> str:
        return f"Glob({self.pattern!r})"

    def match(self, path: str) -> bool:
        state, steps = self._start, self._steps
        for char in path:
            following = steps.get((state, char))
            if following is None:
                if len(steps) >= _MAX_STEPS:
                    steps.clear()
                following = steps[(state, char)] = self._intern(self._step(self._sets[state], char))
            state = following
        accepted = self._sets[state]
        return self._end in accepted or self._rest in accepted

    # NFA states: 2p = before token p; 2p+1 = inside the `.*/` of a `**/` token p.
    def _closure(self, states: set[int]) -> frozenset[int]:
        todo = list(states)
        while todo:
            state = todo.pop()
            if state < self._end and state % 2 == 0 and self._tokens[state // 2][0] in (_STAR, _ANY, _DIRS):
                if state + 2 not in states:
                    states.add(state + 2)
                    todo.append(state + 2)
        return frozenset(states)

    def _step(self, states: frozenset[int], char: str) -> frozenset[int]:
        found: set[int] = set()
        slash = char == "/"
        for state in states:
            if state == self._end:
                if slash:
                    found.add(self._rest)
            elif state == self._rest:
                found.add(state)
            elif state % 2:  # inside `.*/`: anything; a "/" may also end it
                found.add(state)
                if slash:
                    found.add(state + 1)
            else:
                kind, literal = self._tokens[state // 2]
                if kind == _LITERAL:
                    if char == literal:
                        found.add(state + 2)
                elif kind == _ONE or kind == _STAR:
                    if not slash:
                        found.add(state + 2 if kind == _ONE else state)
                elif kind == _ANY:
                    found.add(state)
                else:  # _DIRS
                    found.add(state + 1)
                    if slash:
                        found.add(state + 2)
        return self._closure(found)

    def _intern(self, states: frozenset[int]) -> int:
        number = self._ids.get(states)
        if number is None:
            if len(self._sets) >= _MAX_STEPS:  # start over (the start state stays number 0)
                self._sets, self._ids, self._steps = self._sets[:1], {self._sets[0]: 0}, {}
                if states == self._sets[0]:
                    return 0
            number = self._ids[states] = len(self._sets)
            self._sets.append(states)
        return number


def _glob_tokens(pattern: str) -> list[tuple[int, str]]:
    """The pattern as tokens, with runs that match the same strings folded into one
    (`**/**/` is `**/`; `*` next to `**` is `**`), so a pathological glob stays small."""
    tokens: list[tuple[int, str]] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            token, i = (_DIRS, ""), i + 3
        elif pattern.startswith("**", i):
            token, i = (_ANY, ""), i + 2
        elif pattern[i] in "*?":
            token, i = (_STAR if pattern[i] == "*" else _ONE, ""), i + 1
        else:
            token, i = (_LITERAL, pattern[i]), i + 1
        last = tokens[-1][0] if tokens else None
        if token[0] == _DIRS and last == _DIRS or token[0] == _STAR and last in (_STAR, _ANY):
            continue
        if token[0] == _ANY and last in (_STAR, _ANY):
            tokens[-1] = token
            continue
        tokens.append(token)
    return tokens
