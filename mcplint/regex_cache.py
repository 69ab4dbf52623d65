"""mcplint's own regular expressions, compiled once per installation instead of once per run.

The re module parses and compiles a pattern in Python: the hundred-odd patterns a check meets
cost a fifth of a small check's time. ``regex(source, flags)`` stands for ``re.compile`` for
the patterns written in mcplint's code, never for one built from an input (the cache would grow
with what an attacker sends, and an input's pattern is judged by mcplint.schema_safety anyway).

The compiled programs are kept as ``__pycache__`` files are, and as mcplint.rule_index keeps the
rule index: beside the bytecode, written at exit when bytecode writing is on and the folder is
writable, named for the Python build and the version of its regex engine. A program is used only
as ``_sre.compile`` (which checks it) accepts it, and is saved only when the pattern it gives
equals what re.compile gives (a Pattern compares its source, flags and program). Anything
unexpected means no cache: the pattern is compiled by re.compile, as before.
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys

try:
    import _sre
    from re import _compiler, _parser
    _FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                         f"mcplint-regex.{sys.implementation.cache_tag}-{_sre.MAGIC}.marshal")
except (ImportError, AttributeError):  # another Python: no cache
    _FILE = None

MAX_ENTRIES = 2000  # past this (stale entries of edited patterns), the file keeps one run's
_table: dict | None = None
_new: dict = {}


def regex(source: str, flags: int = 0) -> re.Pattern:
    """``re.compile(source, flags)``, from the cache when it holds the pattern."""
    if _FILE is None:
        return re.compile(source, flags)
    flags = int(flags)
    key = (source, flags)
    entry = _cached().get(key)
    if entry is not None:
        try:
            return _sre.compile(source, *entry)
        except Exception:  # a program of another shape: compiled afresh below
            pass
    pattern = re.compile(source, flags)
    entry = _program(source, flags)
    if entry is not None and _sre.compile(source, *entry) == pattern:
        if not _new:
            atexit.register(_save)
        _new[key] = entry
    return pattern


def _program(source: str, flags: int) -> tuple | None:
    """What re._compiler.compile hands _sre.compile, in types marshal can write."""
    try:
        parsed = _parser.parse(source, flags)
        code = [int(op) for op in _compiler._code(parsed, flags)]
        state = parsed.state
        names = [None] * state.groups
        for name, index in state.groupdict.items():
            names[index] = name
        return int(flags | state.flags), code, state.groups - 1, dict(state.groupdict), tuple(names)
    except Exception:
        return None


def _cached() -> dict:
    global _table
    if _table is None:
        _table = {}
        try:
            # loads of the whole file: marshal.load on a file object reads it a few bytes at
            # a time through Python calls (~40 ms for this file, against 2 ms).
            with open(_FILE, "rb") as handle:
                found = marshal.loads(handle.read())
            if isinstance(found, dict):
                _table = found
        except (OSError, EOFError, ValueError, TypeError):
            pass
    return _table


def _save() -> None:
    if sys.dont_write_bytecode or not _new:
        return
    table = {**_cached(), **_new}
    if len(table) > MAX_ENTRIES:
        table = dict(_new)
    temporary = f"{_FILE}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(_FILE), exist_ok=True)
        with open(temporary, "wb") as handle:
            marshal.dump(table, handle)
        os.replace(temporary, _FILE)  # whole or not at all, whichever process writes last
    except (OSError, ValueError):
        try:
            os.unlink(temporary)
        except (OSError, ValueError):
            pass
