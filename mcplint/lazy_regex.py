"""Regular expressions compiled the first time they are used.

A run seldom needs more than a few of mcplint's patterns (a manifest never meets the traffic
rules' ones, a clean text stops at a cheap pre-check), and compiling all of them at import
cost tens of milliseconds of every start. ``LazyPattern(source, flags)`` stands for
``re.compile(source, flags)``: any attribute (``search``, ``finditer``...) compiles it once.
"""

from __future__ import annotations

from mcplint.regex_cache import regex


class LazyPattern:
    __slots__ = ("_args", "_pattern")

    def __init__(self, *args) -> None:
        self._args = args
        self._pattern = None

    def __getattr__(self, name: str):
        if self._pattern is None:
            self._pattern = regex(*self._args)
        return getattr(self._pattern, name)
