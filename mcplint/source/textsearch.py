"""The fallback for any language: the string literal in the tree that holds the exact text.

Every quoted literal of every readable file is indexed once, by its text as written between
the quotes; a value is looked up in the spellings a source would use (as is, JSON/Go/Java
escapes, with and without \\u escapes, single-quoted). One match wins. Several: the file
that also holds the entry's name as a literal is preferred, and in it the match nearest after
the name. Code beats data files (JSON, YAML, ...), and non-test files beat tests; prose
(Markdown, reStructuredText, plain text) is never searched.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

from mcplint.regex_cache import regex
from mcplint.source.files import CODE, DOCS, SourceFile, Tree, Unreadable
from mcplint.source.model import SINGULAR, Anchor, Pointer, pointer_text

_LITERAL = regex(
    r'"""(.*?)"""|\'\'\'(.*?)\'\'\'|"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`([^`]*)`', re.DOTALL)
_TEST_DIRS = {"tests", "test", "testdata", "__tests__", "spec", "fixtures", "examples"}


def is_test_path(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    return (any(part in _TEST_DIRS for part in parts[:-1]) or name.startswith("test_")
            or name.endswith(("_test.go", "_test.py", ".test.ts", ".test.js", ".spec.ts", ".spec.js",
                              "Test.java", "_spec.rb")))


def rank(file: SourceFile) -> tuple[int, int]:
    category = 0 if file.suffix in CODE else 2 if file.suffix in DOCS else 1
    return category, int(is_test_path(file.rel))


def spellings(value: str) -> list[str]:
    """How a source may write `value` between quotes."""
    forms = [value, json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]]
    single = json.dumps(value, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    forms.append(single)
    return list(dict.fromkeys(form for form in forms if form))


class TextSearch:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.literals: dict[str, list[tuple[SourceFile, int, int]]] = defaultdict(list)
        self.searched = 0
        for file in tree.files:
            if file.suffix in DOCS:  # prose about a tool is not where it is defined
                continue
            try:
                text = file.text()
            except (OSError, Unreadable) as error:
                tree.skip(file, str(error) or "unreadable")
                continue
            self.searched += 1
            for match in _LITERAL.finditer(text):
                group = next(g for g in range(1, 6) if match.start(g) >= 0)
                self.literals[match.group(group)].append((file, match.start(), match.end()))

    def occurrences(self, value: str) -> list[tuple[SourceFile, int, int]]:
        found: dict[tuple[str, int], tuple[SourceFile, int, int]] = {}
        for form in spellings(value):
            for hit in self.literals.get(form, ()):
                found.setdefault((hit[0].rel, hit[1]), hit)
        hits = list(found.values())
        if not hits:
            return []
        best = min(rank(hit[0]) for hit in hits)
        return [hit for hit in hits if rank(hit[0]) == best]

    def locate(self, kind: str, name: str, pointer: Pointer, value: object) -> Anchor | str:
        """An anchor, or the reason there is none."""
        what = f"{SINGULAR.get(kind, kind)} {name}"
        names = self.occurrences(name)
        named_files = {hit[0].rel for hit in names}
        if isinstance(value, str) and value.strip() and pointer != ("name",):
            hits = self.occurrences(value)
            if len(hits) == 1:
                return self._anchor(hits[0], f"text search: the one string literal holding {pointer_text(pointer)}")
            if hits:
                near = [hit for hit in hits if hit[0].rel in named_files]
                if len({hit[0].rel for hit in near}) == 1:
                    chosen = _nearest_after(near, names)
                    how = (f"text search: {len(hits)} string literals hold {pointer_text(pointer)};"
                           f" chose the one nearest after the {SINGULAR.get(kind, kind)}'s name")
                    return self._anchor(chosen, how)
                places = ", ".join(sorted({hit[0].rel for hit in hits})[:3])
                return f"the text of {pointer_text(pointer)} of {what} occurs in {len(hits)} places ({places})"
        key = _property_key(pointer)
        if key is not None and len(named_files) == 1:
            keys = [hit for hit in self.occurrences(key) if hit[0].rel in named_files]
            if keys:
                return self._anchor(_nearest_after(keys, names),
                                    f"text search: the key {key!r} nearest after the {SINGULAR.get(kind, kind)}'s name")
        if len(named_files) == 1:
            return self._anchor(_nearest_after(names, names),
                                f"text search: the {SINGULAR.get(kind, kind)}'s name (the text of "
                                f"{pointer_text(pointer) or 'the entry'} is not written as a literal)")
        if len(named_files) > 1:
            places = ", ".join(sorted(named_files)[:3])
            return f"{what} is named in {len(named_files)} files ({places}); none defines it in a form mcplint reads"
        return ""

    def _anchor(self, hit: tuple[SourceFile, int, int], how: str) -> Anchor:
        file, start, end = hit
        return Anchor(file.rel, file.span(start, end), how)


def _nearest_after(hits: list, names: list) -> tuple[SourceFile, int, int]:
    """The hit closest after an occurrence of the name in the same file (else the first hit)."""
    def distance(hit) -> tuple[int, int]:
        before = [n[1] for n in names if n[0].rel == hit[0].rel and n[1] <= hit[1]]
        return (hit[1] - max(before), hit[1]) if before else (1 << 62, hit[1])
    return min(hits, key=distance)


def _property_key(pointer: Pointer) -> str | None:
    """The deepest property name in a pointer (`city` in /inputSchema/properties/city/description)."""
    key = None
    for before, token in zip(pointer, pointer[1:]):
        if before == "properties":
            key = token
    return key
