"""The base of the content rules (MCP724-MCP734): each asks one question of the shared
walk of a final tools/call, prompts/get or resources/read result."""

from __future__ import annotations

from typing import ClassVar

from mcplint.capture import content
from mcplint.rule import TrafficRule


class ContentRule(TrafficRule):
    """Walks the result once (shared by every content rule), marks the checklist item
    assessed, and hands the walk to ``check_walk``."""

    skip_plain: ClassVar[bool] = True  # results holding only plain text blocks have nothing to check

    def check_exchange(self, exchange, session, ctx):
        walk = content.walk(exchange, session.version)
        if walk is None:
            return ()
        if self.checklist[0] not in session.assessed:
            session.assess(self)
        if self.skip_plain and walk.plain:
            return ()
        return self.check_walk(walk, session.version)

    def check_walk(self, walk: "content.Walk", version: str):
        raise NotImplementedError


class ContentGroup:
    """The content rules one exchange goes to, walked together: ``entries`` (rule, ctx,
    check_walk), ``unplain`` the ones that still look at a result of plain text blocks only,
    and ``assessed`` once their checklist items are marked (the first walked result does it
    for all: each rule marks its item on every walk, and marking is for good)."""

    __slots__ = ("entries", "unplain", "assessed")

    def __init__(self) -> None:
        self.entries: list[tuple] = []
        self.unplain: list[tuple] = []
        self.assessed = False

    def add(self, rule, ctx) -> None:
        self.entries.append((rule, ctx, rule.check_walk))
        if not rule.skip_plain:
            self.unplain.append(self.entries[-1])

    def check(self, exchange, session):
        """(rule, violation) for what the group's rules find in this exchange's result."""
        version = session.version
        walk = content.walk(exchange, version)
        if walk is None:
            return
        if not self.assessed:
            for rule, _, _ in self.entries:
                session.assess(rule)
            self.assessed = True
        for rule, _, check_walk in self.unplain if walk.plain else self.entries:
            for violation in check_walk(walk, version):
                yield rule, violation
