"""Which rules a capture's records, messages and exchanges go to: the hooks each rule
overrides, filtered once per protocol version and per kind of record, message or exchange
(senders, kinds, methods, statuses, errors only), so a message meets only the rules that
can be about it."""

from __future__ import annotations

from mcplint.capture.content_rule import ContentRule
from mcplint.capture.ordinary import (ORDINARY_ANSWER, PLAIN_CALL, PLAIN_SUCCESS, ordinary_answer, plain_call,
                                      plain_success)
from mcplint.capture.records import SERVER
from mcplint.capture.session import RESPONSE
from mcplint.rule import CAPTURE, MANIFEST, RuleContext, TrafficRule

HOOKS = ("check_record", "check_message", "check_exchange", "check_session")


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


class Dispatch:
    """The dispatch tables of ``lint._Linter`` (its plan, path, session and shard: the codes
    of the rules this process runs, None for all)."""

    shortcuts = True  # False: call the quiet rules too (tests/test_ordinary.py compares)

    def hooks(self, version: str) -> dict[str, list]:
        found = self._hooks.get(version)
        if found is None:
            found = self._hooks[version] = {hook: [] for hook in HOOKS}
            for rule in self.plan.rules:
                if not isinstance(rule, TrafficRule) or version not in rule.versions or CAPTURE not in rule.applies_to:
                    continue
                if self.shard is not None and rule.code not in self.shard:
                    continue
                ctx = RuleContext(version, self.plan.options[rule.code], self.path, self.session, self.plan.lock)
                for hook in HOOKS:
                    if getattr(type(rule), hook) is not getattr(TrafficRule, hook):
                        found[hook].append((rule, ctx, getattr(rule, hook)))
        return found

    def exchange_hooks(self, version: str, exchange, failed: bool) -> list:
        """The check_exchange hooks for an exchange, by its method and whether it failed (a
        JSON-RPC error or an isError result). The content rules (MCP724-MCP734) that keep
        ContentRule's check_exchange come as one entry, (None, None, a ContentGroup):
        the linter walks the result once for them and calls only the ones with work to do
        (see ``ContentGroup``)."""
        method = exchange.method
        key = (version, "check_exchange", method, failed)
        found = self._dispatch.get(key)
        if found is None:
            found, group = [], None
            for entry in self.hooks(version)["check_exchange"]:
                rule = entry[0]
                if (rule.methods is not None and method not in rule.methods) or (rule.errors_only and not failed):
                    continue
                if type(rule).check_exchange is ContentRule.check_exchange:
                    if group is None:
                        group = ContentGroup()
                        found.append((None, None, group))
                    group.add(rule, entry[1])
                else:
                    found.append(entry)
            if method == "tools/call" and not failed:
                found = _with_quieter(found, PLAIN_CALL)
            if len(self._dispatch) < 10_000:  # bounded: a capture could invent a million methods
                self._dispatch[key] = found
        if type(found) is tuple:
            return found[1] if self.shortcuts and plain_call(exchange, self.session) else found[0]
        return found

    def message_hooks(self, version: str, message) -> list:
        data = message.data
        has_error = type(data) is dict and "error" in data
        key = (version, "check_message", message.sender, message.kind, message.method, has_error)
        found = self._dispatch.get(key)
        if found is None:
            found = [
                entry for entry in self.hooks(version)["check_message"]
                if (entry[0].senders is None or message.sender in entry[0].senders)
                and (entry[0].kinds is None or message.kind in entry[0].kinds)
                and (not entry[0].errors_only or has_error)
                and (entry[0].methods is None or message.method in entry[0].methods)
            ]
            if message.sender == SERVER and message.kind == RESPONSE:
                found = _with_quieter(found, PLAIN_SUCCESS)
            if len(self._dispatch) < 10_000:  # bounded: a capture could invent a million methods
                self._dispatch[key] = found
        if type(found) is tuple:
            return found[1] if self.shortcuts and plain_success(message, self.session) else found[0]
        return found

    def record_hooks(self, version: str, record) -> list:
        sender, status, problem = record.sender, record.status, record.problem is not None
        key = (version, sender, status, problem)
        found = self._records.get(key)
        if found is None:
            found = [
                entry for entry in self.hooks(version)["check_record"]
                if (entry[0].senders is None or sender is None or sender in entry[0].senders)
                and (entry[0].statuses is None or status in entry[0].statuses)
                and (problem or not entry[0].problems_only)
            ]
            if sender == SERVER:
                found = _with_quieter(found, ORDINARY_ANSWER)
            if len(self._records) < 10_000:  # bounded: a capture could send a million statuses
                self._records[key] = found
        if type(found) is tuple:
            return found[1] if self.shortcuts and ordinary_answer(record, self.session) else found[0]
        return found

    def manifest_rules(self, version: str) -> list:
        found = self._manifest_rules.get(version)
        if found is None:
            found = self._manifest_rules[version] = [
                rule for rule in self.plan.rules
                if not isinstance(rule, TrafficRule) and MANIFEST in rule.applies_to and version in rule.versions
                and (self.shard is None or rule.code in self.shard)
            ]
        return found


def _with_quieter(hooks: list, predicate: str):
    """``hooks``, or (hooks, the ones left when ``predicate`` holds) when some are quiet then."""
    quieter = [entry for entry in hooks if entry[0] is None or predicate not in entry[0].quiet_on]
    return (hooks, quieter) if len(quieter) < len(hooks) else hooks
