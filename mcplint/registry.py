"""Find rules (the built-in pack and `mcplint.rules` entry points) and select them."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
from functools import lru_cache

from mcplint.errors import MCPLintError
from mcplint.rule import Rule

ENTRY_POINT_GROUP = "mcplint.rules"
BUILTIN_PACK = "mcplint_rules"
_CODE = re.compile(r"^[A-Z]{2,6}[0-9]{3}$")
_SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


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
    """Every rule, sorted by code; metadata is validated once, here."""
    found: list[type[Rule]] = []
    for pack in [BUILTIN_PACK, *_plugin_packs()]:
        try:
            modules = list(_pack_modules(pack))
        except Exception as err:  # one broken pack must not take the others down
            raise MCPLintError(f"rule pack {pack!r} failed to load: {err}") from None
        for module in modules:
            found.extend(_rules_in(module))
    _validate(found)
    return tuple(sorted(found, key=lambda r: r.code))


def _validate(rules: list[type[Rule]]) -> None:
    codes: dict[str, type[Rule]] = {}
    names: dict[str, type[Rule]] = {}
    for rule in rules:
        if _CODE.match(rule.code) and _SLUG.match(getattr(rule, "name", "")) and (rule.__doc__ or "").strip() \
                and rule.code not in codes and rule.name not in names:
            codes[rule.code] = names[rule.name] = rule  # valid: no need to find its source file
            continue
        where = inspect.getsourcefile(rule) or rule.__module__
        if not _CODE.match(rule.code):
            raise MCPLintError(f"{where}: rule code {rule.code!r} must look like MCP123")
        if not _SLUG.match(getattr(rule, "name", "")):
            raise MCPLintError(f"{where}: rule name {getattr(rule, 'name', '')!r} must be kebab-case")
        if not (rule.__doc__ or "").strip():
            raise MCPLintError(f"{where}: rule {rule.code} has no docstring")
        for table, key in ((codes, rule.code), (names, rule.name)):
            if key in table:
                raise MCPLintError(f"{where}: rule {key!r} is already defined by {table[key].__module__}")
            table[key] = rule


def find(token: str) -> list[type[Rule]]:
    """Rules matched by a selector: ALL, a code, a code prefix or a slug."""
    token = token.strip()
    rules = all_rules()
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
    for rule in all_rules():
        if rule.code == upper or rule.name == token.strip().lower():
            return rule
    raise MCPLintError(unknown(token))


def unknown(token: str) -> str:
    """The error for a rule nobody defined, with the closest code or name when one is close."""
    from mcplint.suggest import did_you_mean

    token = token.strip()
    choices = [choice for rule in all_rules() for choice in (rule.code, rule.name)]
    return f"unknown rule {token!r}{did_you_mean(token, choices)} (see `mcplint rules`)"


def check_selectors(tokens, where: str) -> None:
    """Each selector matches a rule, else a one-line error naming ``where`` (--select, a config key)."""
    for token in tokens:
        try:
            find(token)
        except MCPLintError as err:
            raise MCPLintError(f"{where}: {err}") from None


def select(select: list[str] | None, ignore: list[str], extend_select: list[str] = ()) -> list[type[Rule]]:
    """ruff's order: the base set (default ALL), plus extend-select, minus ignore."""
    chosen: dict[str, type[Rule]] = {}
    for token in select if select is not None else ["ALL"]:
        chosen.update((r.code, r) for r in find(token))
    for token in extend_select:
        chosen.update((r.code, r) for r in find(token))
    for token in ignore:
        for rule in find(token):
            chosen.pop(rule.code, None)
    return sorted(chosen.values(), key=lambda r: r.code)
