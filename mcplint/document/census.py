"""What the tool objects of a manifest hold, gathered once per document and only when a
rule asks: which fields and annotation keys occur, and the values of one field across all
tools. Tool rules read it to skip a document (or every tool but a few) that cannot have
their finding, instead of calling check_tool on 10,000 tools to return at once."""

from __future__ import annotations

from itertools import repeat
from typing import Any

_PLAIN = frozenset((str, type(None)))  # a column of these is hashable throughout


class Census:
    """Facts over all the tool objects ``tools`` ((pointer, dict) pairs, in order)."""

    def __init__(self, tools: list[tuple[Any, dict]]) -> None:
        self.tools = tools
        self._dicts = [tool for _, tool in tools]
        self._memo: dict = {}
        self.fields: set[str] = set().union(*self._dicts)  # C-speed: no Python call per tool

    @property
    def objects(self) -> list[dict]:
        """The tool objects, in order."""
        return self._dicts

    def has(self, *fields: str) -> bool:
        """Whether any tool has one of ``fields``."""
        return any(field in self.fields for field in fields)

    def column(self, field: str) -> list:
        """``tool.get(field)`` of every tool, in order (built at C speed)."""
        key = ("column", field)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = list(map(dict.get, self._dicts, repeat(field)))
        return found

    def _plain(self, field: str) -> bool:
        """Whether ``field`` holds only strings (or is missing) in every tool."""
        key = ("plain", field)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = set(map(type, self.column(field))) <= _PLAIN
        return found

    def values(self, field: str) -> list:
        """The values of ``field`` in the tools that have it, in order."""
        key = ("values", field)
        found = self._memo.get(key)
        if found is None:
            column = self.column(field) if field in self.fields else []
            found = self._memo[key] = column if None not in column else \
                [tool[field] for tool in self._dicts if field in tool]
        return found

    def types_of(self, field: str) -> set[type]:
        """The types of ``field``'s values across the tools."""
        return set(map(type, self.values(field)))

    @property
    def annotations(self) -> list[dict]:
        """Every tool's ``annotations`` that is an object, in order."""
        found = self._memo.get("annotations")
        if found is None:
            values = self.values("annotations")
            found = self._memo["annotations"] = values if self.types_of("annotations") <= {dict} else \
                [a for a in values if isinstance(a, dict)]
        return found

    @property
    def annotation_keys(self) -> set[str]:
        """Every key of an annotations object."""
        found = self._memo.get("annotation-keys")
        if found is None:
            found = self._memo["annotation-keys"] = set().union(*self.annotations)
        return found

    def annotation_values(self, key: str) -> list:
        """The values of ``key`` in the annotations objects that have it, in order."""
        memo = ("annotation-values", key)
        found = self._memo.get(memo)
        if found is None:
            found = self._memo[memo] = [a[key] for a in self.annotations if key in a] \
                if key in self.annotation_keys else []
        return found

    def annotation_types_of(self, key: str) -> set[type]:
        """The types of annotations' ``key`` values across the tools (annotation objects only)."""
        return set(map(type, self.annotation_values(key)))

    def strings(self, field: str) -> set[str]:
        """The distinct string values of ``field`` across the tools."""
        key = ("strings", field)
        found = self._memo.get(key)
        if found is None:
            if field not in self.fields:
                found = set()
            elif self._plain(field):
                found = set(self.column(field))
                found.discard(None)
            else:
                found = {value for value in self.values(field) if isinstance(value, str)}
            self._memo[key] = found
        return found

    def with_text(self, field: str, odd) -> list[tuple[Any, dict]]:
        """The tools whose ``field`` is a string that ``odd(text)`` holds for, in order. Tools
        share many texts (descriptions, often): ``odd`` is asked once per distinct string."""
        chosen = {text for text in self.strings(field) if odd(text)}
        return self.holding(field, chosen)

    def holding(self, field: str, chosen: set[str]) -> list[tuple[Any, dict]]:
        """The tools whose ``field`` is one of the strings ``chosen``, in order."""
        if not chosen:
            return []
        if self._plain(field):
            return [pair for pair, text in zip(self.tools, self.column(field)) if text in chosen]
        return [(ptr, tool) for ptr, tool in self.tools if isinstance(text := tool.get(field), str) and text in chosen]

    def without_text(self, field: str) -> bool:
        """Whether some tool lacks ``field`` or has a value other than a string there."""
        values = self.values(field)
        return len(values) != len(self.tools) or any(not isinstance(value, str) for value in values)

    def without_words(self, field: str) -> list[tuple[Any, dict]]:
        """The tools whose ``field`` is missing, not a string, or blank, in order."""
        if self.without_text(field):
            return [(ptr, tool) for ptr, tool in self.tools
                    if not isinstance(text := tool.get(field), str) or not text.strip()]
        if "" not in map(str.strip, self.strings(field)):  # (at C speed: most documents)
            return []
        return self.with_text(field, lambda text: not text.strip())

    def with_any(self, fields) -> list[tuple[Any, dict]]:
        """The tools that have one of ``fields`` (a set), in order."""
        if self.fields.isdisjoint(fields):
            return []
        return [(ptr, tool) for ptr, tool in self.tools if not fields.isdisjoint(tool)]
