"""Severity and the immutable Finding the engine builds from a rule's Violation."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from mcplint.document.span import Span


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@dataclass(frozen=True, slots=True)
class Related:
    message: str
    pointer: str
    span: Span


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    path: str
    span: Span
    pointer: str  # RFC 6901 pointer of the offending value as reported by the rule
    checklist: tuple[int, ...] = ()
    tool: str | None = None
    fingerprint: str = ""  # stable across reformatting: rule, path, pointer, value hash
    related: tuple[Related, ...] = field(default=())

    @property
    def sort_key(self):
        return (self.path, self.span.line, self.span.column, self.code, self.pointer)
