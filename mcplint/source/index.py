"""`SourceIndex`: where in a server's source each listed definition, and each part of it, is written.

    index = SourceIndex.build([Path("src")], root=Path("."))
    index.locate("tools", "get_forecast", ("inputSchema", "properties", "city", "description"), text)
    -> Anchor(path="src/weather/server.py", span=Span(...), how="python @mcp.tool: Field description of city")
    or Unplaced(reason="tool get_forecast is not defined in src (searched 12 .py files)")

The walk happens once, at build. Parsing is lazy: on the first lookup, only files that pass a
cheap text test (`wants`) are parsed, each at most once; the literal index for the text search
of other languages is built only when a lookup needs it. Files that cannot be read or parsed
(invalid syntax, nesting too deep, binary, over 2 MB) are skipped and listed in `skipped`.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from pathlib import Path

from mcplint.source import javascript, python
from mcplint.source.files import DOCS, PYTHON, SCRIPT, SourceFile, Tree, Unreadable, is_sample_path, walk
from mcplint.source.jstokens import TokenizeError
from mcplint.source.model import KINDS, SINGULAR, Anchor, Definition, Pointer, Region, Unplaced, pointer_text

_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, TokenizeError, IndexError)


class SourceIndex:
    def __init__(self, tree: Tree, root: Path | None = None) -> None:
        self.tree = tree
        self.root = root  # anchors' paths are relative to it
        self._definitions: dict[tuple[str, str], list[Definition]] | None = None
        self._by_uri: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        self._flavors: dict[str, str | None] = {}
        self._search = None

    @classmethod
    def build(cls, roots: list[Path], root: Path, built: list[Path] = ()) -> SourceIndex:
        """`built`: build output (dist/) holding the file the server's command runs, searched
        after the roots (a TypeScript source defining a tool wins over its compiled copy)."""
        root = Path(os.path.abspath(root))
        return cls(walk([Path(r) for r in roots] or [root], root, [Path(b) for b in built]), root)

    @property
    def skipped(self) -> list[tuple[str, str]]:
        """(path, why) for every file left out so far."""
        return list(self.tree.skipped)

    # -- parsing ---------------------------------------------------------------------------
    def definitions(self) -> dict[tuple[str, str], list[Definition]]:
        if self._definitions is None:
            self._definitions = defaultdict(list)
            models: dict[str, list[python.Model]] = defaultdict(list)
            for file in self.tree.files:
                for definition in self._read(file, models):
                    self._definitions[(definition.kind, definition.name)].append(definition)
                    if definition.uri:
                        self._by_uri[(definition.kind, definition.uri)].append(definition)
            built = {file.rel for file in self.tree.files if file.built}
            for found in self._definitions.values():
                found.sort(key=lambda d: (d.anchor.path in built, is_sample_path(d.anchor.path)))
                for definition in found:
                    _link_models(definition, models)
        return self._definitions

    def _read(self, file: SourceFile, models: dict) -> list[Definition]:
        if file.suffix not in PYTHON and file.suffix not in SCRIPT:
            return []
        try:
            text = file.text()
        except (OSError, Unreadable) as error:
            self.tree.skip(file, str(error) or "unreadable")
            return []
        try:
            if file.suffix in PYTHON:
                if not python.wants(text) and "BaseModel" not in text:
                    return []
                parsed = python.parse(file.rel, text, file.lines())
                self._flavors[file.rel] = parsed.flavor
                for model in parsed.models:
                    models[model.name].append(model)
                return parsed.definitions
            if not javascript.wants(text):
                return []
            return javascript.read(file.rel, text, file.span)
        except _PARSE_ERRORS as error:
            why = type(error).__name__ if not str(error) else f"{type(error).__name__}: {str(error)[:80]}"
            self.tree.skip(file, f"not parsed ({why})")
            return []

    # -- lookups ---------------------------------------------------------------------------
    def locate(self, kind: str, name: str, pointer: tuple[str, ...], value: object | None) -> Anchor | Unplaced:
        pointer = tuple(str(token) for token in pointer)
        found = self._find(kind, name)
        if found:
            return _anchor(_choose(found, pointer, value), pointer, len(found))
        if self._search is None:
            from mcplint.source.textsearch import TextSearch
            self._search = TextSearch(self.tree)
        result = self._search.locate(kind, name, pointer, value)
        if isinstance(result, Anchor):
            return result
        return Unplaced(result or self._not_found(kind, name))

    def _find(self, kind: str, name: str) -> list[Definition]:
        definitions = self.definitions()
        found = definitions.get((kind, name)) or self._by_uri.get((kind, name))
        if not found and kind in ("resources", "resourceTemplates"):  # a template listed as a resource
            other = "resourceTemplates" if kind == "resources" else "resources"
            found = definitions.get((other, name)) or self._by_uri.get((other, name))
        return found or []

    def _not_found(self, kind: str, name: str) -> str:
        counts = Counter(file.suffix for file in self.tree.files if file._text != "" and file.suffix not in DOCS)
        shown = ", ".join(f"{count} {suffix} file{'s' if count != 1 else ''}"
                          for suffix, count in counts.most_common(3)) or "no readable files"
        roots = ", ".join(self.tree.shown_roots) or "the repository"
        reason = f"{SINGULAR.get(kind, kind)} {name} is not defined in {roots} (searched {shown})"
        if self.tree.tests:  # a mock of the tool in test code is not its definition
            more = f" and {len(self.tree.tests) - 1} more" if len(self.tree.tests) > 1 else ""
            reason += f"; test code was left out ({self.tree.tests[0]}{more})"
        unread = [(path, why) for path, why in self.tree.skipped if why.startswith("not parsed")]
        if unread:  # the definition may be in a file that could not be read
            path, why = unread[0]
            more = f" and {len(unread) - 1} more" if len(unread) > 1 else ""
            reason += f"; {path} was {why}{more}"
        return reason

    def static_listing(self, python_version: tuple[int, int] | None = None) -> dict:
        """§5: {"tools": [...], "prompts": [...], "resources": [...], "resourceTemplates": [...]}
        read from Python sources alone; see mcplint/source/static.py for what each entry holds."""
        from mcplint.source.static import static_entry

        listing: dict[str, list[dict]] = {kind: [] for kind in KINDS}
        definitions = self.definitions()
        flavors = Counter(flavor for flavor in self._flavors.values() if flavor)
        if not flavors:  # no file imports mcp or fastmcp: `@x.tool` decorators belong to something else
            return listing
        default = "fastmcp" if flavors["fastmcp"] > flavors["mcp"] else "mcp"
        for (kind, _), found in definitions.items():
            definition = next((d for d in found if d.static), None)
            if definition is None:
                continue
            flavor = self._flavors.get(definition.anchor.path) or default
            entry = static_entry(definition, flavor, python_version)
            if entry is not None:
                listing[kind].append((definition.anchor.path, definition.anchor.span.line, entry))
        return {kind: [entry for *_, entry in sorted(entries, key=lambda e: (e[0], e[1]))]
                for kind, entries in listing.items()}




def _choose(found: list[Definition], pointer: Pointer, value: object) -> Definition:
    """Twins (one name defined twice): the one whose literal text at the pointer is the value."""
    if len(found) > 1 and isinstance(value, str):
        for definition in found:
            if definition.texts.get(pointer) == value:
                return definition
    return found[0]


def _anchor(definition: Definition, pointer: Pointer, count: int) -> Anchor:
    for size in range(len(pointer), -1, -1):
        region = definition.parts.get(pointer[:size])
        if region is not None:
            label = definition.labels.get(pointer[:size], "")
            how = f"{definition.construct}: {label}" if label else definition.construct
            if size < len(pointer):
                how += f" ({pointer_text(pointer)} is not written in the source; nearest written part"
                how += f" {pointer_text(pointer[:size])})" if size else ": the definition)"
            if count > 1:
                how += f"; one of {count} definitions of {definition.name}"
            return Anchor(region.path, region.span, how)
    return Anchor(definition.anchor.path, definition.anchor.span, f"{definition.construct}: definition")


def _link_models(definition: Definition, models: dict[str, list]) -> None:
    """A parameter typed with a pydantic model: its fields are `$defs/<Model>/properties/...`
    (what the SDK emits) and, for SDKs that inline, `properties/<param>/properties/...`.
    Inherited fields come first, as pydantic lists them."""
    decorated = (definition.static or {}).get("decorated")
    if decorated is None or not decorated.refs:
        return
    pending = [(base, name, definition.anchor.path, 0) for base, name in decorated.refs]
    done: set[str] = set()
    while pending:
        base, name, path, depth = pending.pop(0)
        lineage = _lineage(name, path, models)
        if not lineage or depth > 8:
            continue
        prefixes = [base] if name in done else [base, ("inputSchema", "$defs", name)]
        done.add(name)
        required = list(dict.fromkeys(field for model in reversed(lineage) for field in model.required))
        for prefix in prefixes:
            for generation, model in enumerate(lineage):
                for pointer, region in model.parts.parts.items():
                    if generation and len(pointer) < 2:
                        continue  # an ancestor's own name and docstring are not this model's
                    definition.put(prefix + pointer, region, model.parts.labels[pointer],
                                   model.parts.texts.get(pointer))
            for i, field_name in enumerate(required):
                region = definition.parts.get(prefix + ("properties", field_name))
                definition.put(prefix + ("required", str(i)), region, f"field {field_name} of {name}")
        for model in lineage:
            for field_name, inner in model.refs:
                pending.append((("inputSchema", "$defs", name, "properties", field_name), inner, model.path,
                                depth + 1))


def _lineage(name: str, path: str, models: dict[str, list]) -> list:
    """The class named `name` and its ancestors in the tree, if pydantic lists its fields (it derives
    from BaseModel or TypedDict, or is a dataclass); the same file's class wins, else the only one."""
    chain, bases, seen = [], [(name, path)], set()
    listed = False
    while bases and len(chain) < 16:
        current, where = bases.pop(0)
        if current in ("BaseModel", "TypedDict", "dataclass"):
            listed = True
            continue
        candidates = models.get(current, [])
        same = [model for model in candidates if model.path == where]
        model = same[0] if same else candidates[0] if len(candidates) == 1 else None
        if model is None or current in seen:
            continue
        seen.add(current)
        chain.append(model)
        bases.extend((base, model.path) for base in model.bases)
    return chain if listed else []

__all__ = ["SourceIndex", "Anchor", "Unplaced", "Region"]
