"""Find rules (the built-in pack and `mcplint.rules` entry points) and select them."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
from functools import lru_cache

from mcplint.errors import MCPLintError
from mcplint.regex_cache import regex
from mcplint.rule import Rule

ENTRY_POINT_GROUP = "mcplint.rules"
BUILTIN_PACK = "mcplint_rules"
_CODE = regex(r"^[A-Z]{2,6}[0-9]{3}$")
_SLUG = regex(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def _pack_modules(package_name: str):
    package = importlib.import_module(package_name)
    yield package
    for info in pkgutil.iter_modules(getattr(package, "__path__", []), package_name + "."):
        if not info.ispkg and not info.name.rsplit(".", 1)[-1].startswith("_"):
            yield importlib.import_module(info.name)


def _rules_in(module) -> list[type[Rule]]:
    return [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj) and issubclass(obj, Rule) and obj.__module__ == module.__name__
        and "code" in vars(obj)
    ]


def _plugin_packs() -> list[str]:
    if os.environ.get("MCPLINT_DISABLE_PLUGIN_AUTOLOAD") or not _may_have_plugins():
        return []
    from importlib.metadata import entry_points

    return [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.value != BUILTIN_PACK]


def _may_have_plugins() -> bool:
    """Whether any distribution on the path could register a rule pack besides the built-in
    one: a look at the entry_points.txt files on sys.path, the way importlib.metadata finds
    them. Importing importlib.metadata costs more (30 ms) than the rest of a small run's
    start; anything this look cannot rule out (zip files on the path, other distribution
    finders, an unexpected line) leaves the answer to importlib.metadata."""
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True  # a zip file: importlib.metadata reads it
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as handle:
                        text = handle.read()
                except OSError:
                    continue
                except ValueError:  # not UTF-8
                    return True
                if ENTRY_POINT_GROUP in text and not _only_builtin(text):
                    return True
    return False


def _only_builtin(entry_points_txt: str) -> bool:
    """Whether the file's mcplint.rules section registers the built-in pack alone."""
    in_group = False
    for line in entry_points_txt.splitlines():
        line = line.strip()
        if line.startswith("["):
            in_group = ENTRY_POINT_GROUP in line
            if in_group and line != f"[{ENTRY_POINT_GROUP}]":
                return False
        elif in_group and line and not line.startswith(("#", ";")):
            if line.partition("=")[2].strip() != BUILTIN_PACK:
                return False
    return True


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule class, sorted by code (every rule module imported)."""
    return tuple(entry.load() for entry in catalog())


@lru_cache(maxsize=1)
def catalog() -> tuple[RuleEntry, ...]:
    """Every rule as selection sees it, sorted by code; metadata is validated once, here.

    The built-in pack is read from its index (``mcplint.rule_index``) when that is current,
    so a run imports only the rule modules it runs: a manifest never pays for the traffic
    rules. Plugin packs are imported whole."""
    from mcplint import rule_index

    found: list[RuleEntry] = []
    indexed = rule_index.read(BUILTIN_PACK)
    for pack in [BUILTIN_PACK, *_plugin_packs()]:
        if pack == BUILTIN_PACK and indexed is not None:
            found.extend(indexed)
            continue
        try:
            modules = list(_pack_modules(pack))
        except Exception as err:  # one broken pack must not take the others down
            raise MCPLintError(f"rule pack {pack!r} failed to load: {err}") from None
        classes = [rule for module in modules for rule in _rules_in(module)]
        _validate(classes)
        entries = [RuleEntry.of(rule) for rule in classes]
        _unique(entries)
        if pack == BUILTIN_PACK:
            rule_index.write(BUILTIN_PACK, entries)
        found.extend(entries)
    _unique(found)
    return tuple(sorted(found, key=lambda r: r.code))


class RuleEntry:
    """A rule's selection metadata (code, name, what it applies to, its versions and checklist
    items) without its module imported; ``load()`` imports it and gives the class (as a rule
    class's own ``load()`` gives itself)."""

    __slots__ = ("code", "name", "applies_to", "versions", "checklist", "module", "qualname", "_cls")

    def __init__(self, code, name, applies_to, versions, checklist, module, qualname, cls=None) -> None:
        self.code, self.name, self.module, self.qualname, self._cls = code, name, module, qualname, cls
        self.applies_to, self.versions, self.checklist = frozenset(applies_to), frozenset(versions), tuple(checklist)

    @classmethod
    def of(cls, rule: type[Rule]) -> "RuleEntry":
        return cls(rule.code, rule.name, rule.applies_to, rule.versions, rule.checklist,
                   rule.__module__, rule.__qualname__, rule)

    def load(self) -> type[Rule]:
        if self._cls is None:
            try:
                self._cls = getattr(importlib.import_module(self.module), self.qualname)
            except Exception as err:  # as a pack failing to load: one line, not a traceback
                raise MCPLintError(f"rule {self.code} ({self.module}) failed to load: {err}") from None
        return self._cls

    def __repr__(self) -> str:
        return f"<rule {self.code} {self.name}>"


class RuleOptionsTable(dict):
    """Each rule's options by code: the configured ones, and a rule's defaults made when first
    asked for (its Options class is in its module, which a run may never import)."""

    def __init__(self, entries) -> None:
        super().__init__()
        self._entries = {entry.code: entry for entry in entries}

    def __missing__(self, code: str):
        options = self[code] = self._entries[code].load().Options()
        return options


def _validate(rules: list[type[Rule]]) -> None:
    """Each rule's own metadata: a code, a kebab-case name and a docstring."""
    for rule in rules:
        if _CODE.match(rule.code) and _SLUG.match(getattr(rule, "name", "")) and (rule.__doc__ or "").strip():
            continue  # valid: no need to find its source file
        where = inspect.getsourcefile(rule) or rule.__module__
        if not _CODE.match(rule.code):
            raise MCPLintError(f"{where}: rule code {rule.code!r} must look like MCP123")
        if not _SLUG.match(getattr(rule, "name", "")):
            raise MCPLintError(f"{where}: rule name {getattr(rule, 'name', '')!r} must be kebab-case")
        raise MCPLintError(f"{where}: rule {rule.code} has no docstring")


def _unique(entries: list[RuleEntry]) -> None:
    """No two rules share a code or a name (across packs)."""
    codes: dict[str, RuleEntry] = {}
    names: dict[str, RuleEntry] = {}
    for entry in entries:
        for table, key in ((codes, entry.code), (names, entry.name)):
            if key in table:
                where = inspect.getsourcefile(entry.load()) or entry.module
                raise MCPLintError(f"{where}: rule {key!r} is already defined by {table[key].module}")
            table[key] = entry


def find(token: str) -> list[RuleEntry]:
    """Rules matched by a selector: ALL, a code, a code prefix or a slug."""
    token = token.strip()
    rules = catalog()
    if token.upper() == "ALL":
        return list(rules)
    upper = token.upper()
    if re.fullmatch(r"[A-Z]+[0-9]*", upper):
        matched = [r for r in rules if r.code.startswith(upper)]
    else:
        matched = [r for r in rules if r.name == token.lower()]
    if not matched:
        raise MCPLintError(unknown(token))
    return matched


def get(token: str) -> type[Rule]:
    upper = token.strip().upper()
    for rule in catalog():
        if rule.code == upper or rule.name == token.strip().lower():
            return rule.load()
    raise MCPLintError(unknown(token))


def unknown(token: str) -> str:
    """The error for a rule nobody defined, with the closest code or name when one is close."""
    from mcplint.suggest import did_you_mean

    token = token.strip()
    choices = [choice for rule in catalog() for choice in (rule.code, rule.name)]
    return f"unknown rule {token!r}{did_you_mean(token, choices)} (see `mcplint rules`)"


def check_selectors(tokens, where: str) -> None:
    """Each selector matches a rule, else a one-line error naming ``where`` (--select, a config key)."""
    for token in tokens:
        try:
            find(token)
        except MCPLintError as err:
            raise MCPLintError(f"{where}: {err}") from None


def select(select: list[str] | None, ignore: list[str], extend_select: list[str] = ()) -> list[RuleEntry]:
    """ruff's order: the base set (default ALL), plus extend-select, minus ignore."""
    chosen: dict[str, RuleEntry] = {}
    for token in select if select is not None else ["ALL"]:
        chosen.update((r.code, r) for r in find(token))
    for token in extend_select:
        chosen.update((r.code, r) for r in find(token))
    for token in ignore:
        for rule in find(token):
            chosen.pop(rule.code, None)
    return sorted(chosen.values(), key=lambda r: r.code)
