"""The base of the rules that scan what a tools/call answer shows a person or a model
(MCP420-MCP423): the answer's texts are gathered once per exchange and handed to each
rule's ``check_texts``."""

from __future__ import annotations

from typing import Callable, ClassVar

from mcplint.capture.outputs import output_texts, tool_answer
from mcplint.rule import TrafficRule


class OutputRule(TrafficRule):
    """Finds the answer of a tools/call (a result or an error), marks the checklist item
    assessed, and hands the answer's texts (``outputs.output_texts``) to ``check_texts``:
    only the texts ``suspect`` holds for, when the rule has one, and none at all (no call)
    when no text is suspect."""

    # A cheap test a text must pass for check_texts to find anything in it (written as
    # ``suspect = staticmethod(test)``); None: every text is worth a look.
    suspect: ClassVar[Callable[[str], bool] | None] = None

    def check_exchange(self, exchange, session, ctx):
        answer = tool_answer(exchange)
        if answer is None:
            return ()
        session.assess(self)
        texts = _suspect(output_texts(answer), self.suspect)
        return self.check_texts(exchange, answer, texts) if texts else ()

    def check_texts(self, exchange, answer, texts):
        """Violations in ``texts``: (pointer, what, text) of each string ``answer`` shows."""
        raise NotImplementedError


class OutputGroup:
    """The output rules one exchange goes to, run together: the answer is found and its
    texts gathered once, and the checklist items marked on the first answer (marking is for
    good, so later answers need not)."""

    __slots__ = ("entries", "assessed")

    def __init__(self) -> None:
        self.entries: list[tuple] = []  # (rule, suspect, check_texts)
        self.assessed = False

    def add(self, rule, ctx) -> None:
        self.entries.append((rule, rule.suspect, rule.check_texts))

    def check(self, exchange, session):
        """(rule, violation) for what the group's rules find in this exchange."""
        answer = tool_answer(exchange)
        if answer is None:
            return
        if not self.assessed:
            for rule, _, _ in self.entries:
                session.assess(rule)
            self.assessed = True
        texts = output_texts(answer)
        for rule, suspect, check_texts in self.entries:
            chosen = _suspect(texts, suspect)
            if chosen:
                for violation in check_texts(exchange, answer, chosen):
                    yield rule, violation


def _suspect(texts, suspect):
    """The texts worth a rule's look: all of them, or those ``suspect`` holds for."""
    if suspect is None or not texts:
        return texts
    return [entry for entry in texts if suspect(entry[2])]
