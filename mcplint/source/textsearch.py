"""The fallback for any language: the string literal in the tree that holds the exact text.

Every quoted literal of every readable file is indexed once, by its text as written between
the quotes; a value is looked up in the spellings a source would use (as is, JSON/Go/Java
escapes, with and without \\u escapes, single-quoted). A text of several words that is the one
such literal in the tree wins wherever it is. Anything less telling (one word, a property's key,
a text written twice) counts only inside the definition whose name was found: the bracket group
around the name's literal (brackets.py), and there the match nearest after the name. Failing
that, the name itself stands for the entry; a match elsewhere, in another function's
`return {"title": ...}` say, is never taken. Code beats data files (JSON, YAML, ...), samples
come after the rest, prose (Markdown, reStructuredText, plain text) is never searched, and test
code is not in the tree at all (files.py).
"""

from __future__ import annotations

import bisect
import json
import re
from collections import defaultdict

from mcplint.regex_cache import regex
from mcplint.source.brackets import Groups
from mcplint.source.files import CODE, DOCS, SCRIPT, SourceFile, Tree, Unreadable, is_sample_path
from mcplint.source.model import SINGULAR, Anchor, Pointer, pointer_text

# String literals, with comments matched first and passed over: a tool's name quoted in a JSDoc
# comment above its definition is not the definition (server-everything). A template literal may
# hold escaped backticks (firecrawl's descriptions quote ```json examples).
_QUOTED = r'"""(.*?)"""|\'\'\'(.*?)\'\'\'|"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\''
_LITERAL = regex(rf"{_QUOTED}|`([^`]*)`", re.DOTALL)  # data files (JSON): no comments
_LITERAL_HASH = regex(rf"#[^\n]*|{_QUOTED}|`([^`]*)`", re.DOTALL)
_LITERAL_SLASH = regex(rf"//[^\n]*|/\*.*?\*/|{_QUOTED}|`([^`]*)`", re.DOTALL)  # Go's raw strings: no escapes
_LITERAL_SCRIPT = regex(rf"//[^\n]*|/\*.*?\*/|{_QUOTED}|`((?:[^`\\]|\\.)*)`", re.DOTALL)  # JS templates


# A Go struct tag (`json:"city,omitempty" jsonschema:"City name"`) and its key:"value" pairs.
_TAG_PAIR = regex(r'(\w+):"((?:[^"\\]|\\.)*)"')
_STRUCT_TAG = regex(r'\s*(?:\w+:"(?:[^"\\]|\\.)*"\s*)+')


def _decorated_line(text: str, start: int) -> bool:
    """Whether the line before the one at ``start`` is a decorator ("@..."), as a def's is."""
    if start == 0:
        return False
    above = text.rfind("\n", 0, start - 1) + 1
    return text[above:start - 1].lstrip(" \t").startswith("@")


def _literals_of(suffix: str):
    from mcplint.source.brackets import _HASH_COMMENTS

    if suffix in _HASH_COMMENTS:
        return _LITERAL_HASH
    if suffix in SCRIPT:
        return _LITERAL_SCRIPT
    return _LITERAL_SLASH if suffix in CODE else _LITERAL


def rank(file: SourceFile) -> tuple[int, int, int]:
    """Code first, then data; build output, then samples (examples/, fixtures/), after the rest."""
    category = 0 if file.suffix in CODE else 2 if file.suffix in DOCS else 1
    return category, int(file.built), int(is_sample_path(file.rel))


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
        self._groups: dict[str, Groups] = {}
        for file in tree.files:
            if file.suffix in DOCS:  # prose about a tool is not where it is defined
                continue
            try:
                text = file.text()
            except (OSError, Unreadable) as error:
                tree.skip(file, str(error) or "unreadable")
                continue
            self.searched += 1
            pattern = _literals_of(file.suffix)
            go = file.suffix == ".go"
            for match in pattern.finditer(text):
                group = next((g for g in range(1, 6) if match.start(g) >= 0), None)
                if group is not None:  # (a comment otherwise)
                    self.literals[match.group(group)].append((file, match.start(), match.end()))
                    if go and group == 5:
                        self._index_tag(file, match.group(5), match.start(5))

    def _index_tag(self, file: SourceFile, text: str, at: int) -> None:
        """A Go struct tag's values, each as a literal of its own (the Go SDK's typed tool inputs:
        `json:"city" jsonschema:"City name"`): a parameter's description is the jsonschema value,
        its name the json value before any ",omitempty"."""
        if _STRUCT_TAG.fullmatch(text) is None:
            return
        for pair in _TAG_PAIR.finditer(text):
            value, start = pair.group(2), at + pair.start(2)
            if pair.group(1) == "json":
                value = value.split(",", 1)[0]
            if value and value != "-":  # quotes included when the value is the whole of them
                whole = len(value) == len(pair.group(2))
                self.literals[value].append((file, start - whole, start + len(value) + whole))

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
        """An anchor, or the reason there is none. Only a text that says something (more than one
        word) is taken wherever it is the one literal of the tree; a word, a key or a twin counts
        only inside the definition whose name was found (the bracket group around the name)."""
        what = f"{SINGULAR.get(kind, kind)} {name}"
        names = self.occurrences(name)
        named_files = {hit[0].rel for hit in names}
        if isinstance(value, str) and value.strip() and pointer != ("name",):
            hits = self.occurrences(value)
            if len(hits) == 1 and _telling(value):
                return self._anchor(hits[0], f"text search: the one string literal holding {pointer_text(pointer)}")
            near = self._within_definitions(hits, names)
            if near:
                how = (f"text search: {len(hits)} string literal{'s' if len(hits) > 1 else ''} hold "
                       f"{pointer_text(pointer)}; chose the one nearest after the {SINGULAR.get(kind, kind)}'s name,"
                       " inside its definition")
                return self._anchor(_nearest_after(near, names), how)
            if len(hits) > 1 and len(named_files) != 1:
                places = ", ".join(sorted({hit[0].rel for hit in hits})[:3])
                return f"the text of {pointer_text(pointer)} of {what} occurs in {len(hits)} places ({places})"
        key = _property_key(pointer)
        if key is not None and len(named_files) == 1:
            keys = self._within_definitions(self.occurrences(key), names)
            if keys:
                return self._anchor(_nearest_after(keys, names),
                                    f"text search: the key {key!r} nearest after the {SINGULAR.get(kind, kind)}'s "
                                    "name, inside its definition")
            alone = self._only_key(names[0][0], key)
            if alone is not None:
                return self._anchor(alone, f"text search: the one place the {SINGULAR.get(kind, kind)}'s file writes "
                                           f"the key {key!r} (its schema is an object of its own)")
        defined = self._decorated_def(name) if kind == "tools" and all(
            _bare_element(hit) for hit in names) else None
        if defined is not None:
            return self._in_def(defined, pointer)
        if len(named_files) == 1:
            return self._anchor(_nearest_after(names, names),
                                f"text search: the {SINGULAR.get(kind, kind)}'s name (the text of "
                                f"{pointer_text(pointer) or 'the entry'} is not written as a literal)")
        if len(named_files) > 1:
            places = ", ".join(sorted(named_files)[:3])
            return f"{what} is named in {len(named_files)} files ({places}); none defines it in a form mcplint reads"
        return ""

    def _only_key(self, file: SourceFile, key: str) -> tuple[SourceFile, int, int] | None:
        """The key written once in the file, bare or quoted, before a colon (next-devtools:
        `export const inputSchema = { task: z.string()... }` beside `metadata = { name: ... }`)."""
        if file.suffix == ".go":
            found = list(re.finditer(rf'json:"({re.escape(key)})([,"])', file.text()))
            if len(found) != 1:
                return None
            whole = found[0].group(2) == '"'  # quotes included when the key is the whole of them
            return file, found[0].start(1) - whole, found[0].end(1) + whole
        if file.suffix not in CODE or not key.isidentifier():
            return None
        found = list(re.finditer(rf"(?<![\w$.\"'])([\"']?){re.escape(key)}\1\s*:(?!:)", file.text()))
        if len(found) != 1:
            return None
        start = found[0].start() + len(found[0].group(1))
        return file, start, start + len(key)

    def _decorated_def(self, name: str):
        """The one decorated Python function named as the tool, when the tree has exactly one: a
        server's own registry decorators (`@tools.reader("Title")` over `def create_workbook(...)`,
        excel-mcp-server) name the tool after the function. (file, offset of the name, offset of
        the signature's "(")"""
        if not name.isidentifier():
            return None
        # The def first, then a look at the line above it: a decorator run matched forwards from
        # every "@" line was quadratic (15,000 lines of "@x" and no def: minutes).
        pattern = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+({re.escape(name)})[ \t]*\(", re.M)
        found = []
        for file in self.tree.files:
            if file.suffix not in (".py", ".pyi"):
                continue
            try:
                text = file.text()
            except (OSError, Unreadable):
                continue
            if name not in text:
                continue
            found += [(file, match.start(1), match.end() - 1) for match in pattern.finditer(text)
                      if _decorated_line(text, match.start())]
            if len(found) > 1:
                return None
        return found[0] if found else None

    def _in_def(self, defined, pointer: Pointer) -> Anchor:
        """The function's name, or a parameter of its signature for a pointer into inputSchema."""
        file, at, paren = defined
        key = _property_key(pointer)
        if key is not None and len(pointer) == 3 and key.isidentifier():
            scope = self._groups_of(file).enclosing(paren + 1)
            text = file.text()
            if scope is not None:
                match = re.compile(rf"[(,]\s*(?:\*\s*,\s*)?({re.escape(key)})\s*[:=,)]").search(text, scope[0], scope[1])
                if match is not None:
                    return self._anchor((file, match.start(1), match.end(1)),
                                        "text search: the parameter in the signature of the decorated function "
                                        "named as the tool")
        return self._anchor((file, at, at + len(file.text()[at:paren].rstrip())),
                            "text search: the decorated function named as the tool")

    def _groups_of(self, file: SourceFile) -> Groups:
        groups = self._groups.get(file.rel)
        if groups is None:
            groups = self._groups[file.rel] = Groups(file.text(), file.suffix)
        return groups

    def _within_definitions(self, hits: list, names: list) -> list:
        """The hits inside the bracket group around an occurrence of the name (a data file's
        name at its top level: the whole file), the name itself left out. Per file, the groups
        sorted by opening with the furthest close so far: a hit is looked up by bisection (a
        file repeating a name 170,000 times made this hits x names)."""
        by_file: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for file, start, _ in names:
            scope = self._scope(file, start)
            if scope is not None:
                by_file[file.rel].append((scope[0], scope[1], start))
        tables = {}
        for rel, scopes in by_file.items():
            scopes.sort()
            # the two furthest closes so far, with their names' offsets: a hit that is itself the
            # name of the furthest group is inside another only if the second reaches past it
            best, first, second = [], (-1, -1), (-1, -1)
            for _, high, at in scopes:
                if high > first[0]:
                    first, second = (high, at), first
                elif high > second[0]:
                    second = (high, at)
                best.append((first, second))
            tables[rel] = ([low for low, _, _ in scopes], best, scopes)
        return [hit for hit in hits if _inside(tables.get(hit[0].rel), hit[1])]

    def _scope(self, file: SourceFile, offset: int) -> tuple[int, int] | None:
        scope = self._groups_of(file).enclosing(offset)
        if scope is None and file.suffix not in CODE:
            return 0, len(file.text())
        return scope

    def _anchor(self, hit: tuple[SourceFile, int, int], how: str) -> Anchor:
        file, start, end = hit
        return Anchor(file.rel, file.span(start, end), how)


def _inside(table, offset: int) -> bool:
    """Some group of ``table`` holds ``offset``, other than the one around the name at ``offset``."""
    if table is None:
        return False
    lows, best, _ = table
    count = bisect.bisect_right(lows, offset)
    if not count:
        return False
    (reach, at), (second, _) = best[count - 1]
    return reach > offset and (at != offset or second > offset)


def _nearest_after(hits: list, names: list) -> tuple[SourceFile, int, int]:
    """The hit closest after an occurrence of the name in the same file (else the first hit)."""
    offsets: dict[str, list[int]] = defaultdict(list)
    for name in names:
        offsets[name[0].rel].append(name[1])
    for found in offsets.values():
        found.sort()

    def distance(hit) -> tuple[int, int]:
        found = offsets.get(hit[0].rel, ())
        at = bisect.bisect_right(found, hit[1])
        return (hit[1] - found[at - 1], hit[1]) if at else (1 << 62, hit[1])
    return min(hits, key=distance)


def _bare_element(hit: tuple[SourceFile, int, int]) -> bool:
    """A literal that is an element of a tuple, list or set (`("create_workbook", ...)`, a table of
    names for a --tools switch), not a value given to anything."""
    file, start, end = hit
    text = file.text()
    before = text[max(0, start - 200):start].rstrip()
    after = text[end:end + 200].lstrip()
    if before[-1:] not in ("(", "[", "{", ",") or after[:1] not in (",", ")", "]", "}"):
        return False
    if before[-1:] == "(":  # `register("x")` is a call's argument; `("x", "y")` a tuple
        ahead = before[:-1].rstrip()[-1:]
        return not (ahead.isalnum() or ahead in ("_", ")", "]"))
    return True


def _telling(value: str) -> bool:
    """A text of more than one word: a literal holding it exactly is not there by chance."""
    return len(value.split()) > 1


def _property_key(pointer: Pointer) -> str | None:
    """The deepest property name in a pointer (`city` in /inputSchema/properties/city/description)."""
    key = None
    for before, token in zip(pointer, pointer[1:]):
        if before == "properties":
            key = token
    return key
