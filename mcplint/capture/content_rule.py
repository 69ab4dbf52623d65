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
