"""The built-in rule pack's index: each rule's selection metadata, cached beside its bytecode.

Importing all 150 rule modules is a third of a small check's start, and a manifest needs
none of the traffic rules (nor a transcript without tools/list pages most manifest rules).
The registry reads the code, name, kinds, versions and checklist items of every rule from
this index and imports a module only when its rule runs or more of it is asked for.

The index is a cache, as ``__pycache__/*.pyc`` files are, and kept the same way: written
on a run that imported every module, in the pack's ``__pycache__`` (not when bytecode
writing is off, nor where the folder is read-only), and used only while every file in the
pack's folder has the size and modification time it had then. Anything unexpected (no
folder, a file of another shape, another mcplint version) means no index: every module is
imported, as before, and the answer is the same.
"""

from __future__ import annotations

import json
import os
import sys

from mcplint import __version__

FORMAT = 1
FILE_NAME = "mcplint-rule-index.json"

_stamps: dict[str, tuple[str, list]] = {}  # pack -> (its folder, the stamp read() saw)


def read(pack: str):
    """The pack's rules as ``registry.RuleEntry`` objects, or None when there is no current index."""
    folder = _folder(pack)
    if folder is None:
        return None
    stamp = _stamp(folder)
    if stamp is None:
        return None
    _stamps[pack] = (folder, stamp)
    try:
        with open(os.path.join(folder, "__pycache__", FILE_NAME), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("mcplint") == __version__
            and data.get("stamp") == stamp and isinstance(data.get("rules"), list)):
        return None
    from mcplint.registry import RuleEntry

    try:
        return [RuleEntry(*row) for row in data["rules"]]
    except (TypeError, ValueError):
        return None


def write(pack: str, entries) -> None:
    """Save the index of a pack whose every module was just imported (a cache: failures are silent)."""
    if sys.dont_write_bytecode or pack not in _stamps:
        return
    folder, stamp = _stamps[pack]
    rows = [[e.code, e.name, sorted(e.applies_to), sorted(e.versions), list(e.checklist), e.module, e.qualname]
            for e in entries]
    text = json.dumps({"format": FORMAT, "mcplint": __version__, "stamp": stamp, "rules": rows})
    cache = os.path.join(folder, "__pycache__")
    temporary = os.path.join(cache, f"{FILE_NAME}.{os.getpid()}.tmp")
    try:
        os.makedirs(cache, exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, os.path.join(cache, FILE_NAME))  # atomic: a concurrent run reads old or new
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _folder(pack: str) -> str | None:
    import importlib

    try:
        package = importlib.import_module(pack)
    except Exception:  # the registry reports a pack that cannot load
        return None
    paths = list(getattr(package, "__path__", ()))
    return paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else None


def _stamp(folder: str) -> list | None:
    """Every file's name, size and modification time, sorted: any edit, addition or removal
    changes it. None for a folder holding anything but plain files (a subpackage, a link)."""
    stamp = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name == "__pycache__":
                    continue
                if not entry.is_file(follow_symlinks=False):
                    return None
                info = entry.stat(follow_symlinks=False)
                stamp.append([entry.name, info.st_size, info.st_mtime_ns])
    except OSError:
        return None
    stamp.sort()
    return stamp
