"""Which rules a capture's records, messages and exchanges go to: the hooks each rule
overrides, filtered once per protocol version and per kind of record, message or exchange
(senders, kinds, methods, statuses, errors only), so a message meets only the rules that
can be about it."""

from __future__ import annotations

from mcplint.capture.content_rule import ContentGroup, ContentRule
from mcplint.capture.output_rule import OutputGroup, OutputRule
from mcplint.capture.ordinary import (ORDINARY_ANSWER, PLAIN_CALL, PLAIN_SUCCESS, STEADY_SESSION, ordinary_answer,
                                      plain_call, plain_success, steady_session)
from mcplint.capture.records import SERVER
from mcplint.capture.session import RESPONSE
from mcplint.rule import CAPTURE, MANIFEST, RuleContext, TrafficRule

HOOKS = ("check_record", "check_message", "check_exchange", "check_session")
# The check_exchange of a rule base -> the group that runs the rules keeping it, together.
GROUPS = {ContentRule.check_exchange: ContentGroup, OutputRule.check_exchange: OutputGroup}


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
        JSON-RPC error or an isError result). The rules that keep the check_exchange of a
        base in GROUPS come as one entry per base, (None, None, its group): the group does
        their shared work once and yields (rule, violation) from ``check``."""
        method = exchange.method
        key = (version, "check_exchange", method, failed)
        found = self._dispatch.get(key)
        if found is None:
            found, groups = [], {}
            for entry in self.hooks(version)["check_exchange"]:
                rule = entry[0]
                if (rule.methods is not None and method not in rule.methods) or (rule.errors_only and not failed):
                    continue
                group_type = GROUPS.get(type(rule).check_exchange)
                if group_type is None:
                    found.append(entry)
                    continue
                if group_type not in groups:
                    groups[group_type] = group_type()
                    found.append((None, None, groups[group_type]))
                groups[group_type].add(rule, entry[1])
            if method == "tools/call" and not failed:
                found = _with_quieter(found, (PLAIN_CALL, plain_call))
            if len(self._dispatch) < 10_000:  # bounded: a capture could invent a million methods
                self._dispatch[key] = found
        return _quieted(found, exchange, self) if type(found) is tuple else found

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
                found = _with_quieter(found, (PLAIN_SUCCESS, plain_success))
            if len(self._dispatch) < 10_000:  # bounded: a capture could invent a million methods
                self._dispatch[key] = found
        return _quieted(found, message, self) if type(found) is tuple else found

    def record_hooks(self, version: str, record) -> list:
        sender, status, problem = record.sender, record.status, record.problem is not None
        transport = "stdio" if record.http is None else "http"
        key = (version, sender, status, problem, transport)
        found = self._records.get(key)
        if found is None:
            found = [
                entry for entry in self.hooks(version)["check_record"]
                if (entry[0].senders is None or sender is None or sender in entry[0].senders)
                and (entry[0].statuses is None or status in entry[0].statuses)
                and (problem or not entry[0].problems_only)
                and (entry[0].transports is None or transport in entry[0].transports)
            ]
            if sender == SERVER:
                found = _with_quieter(found, (ORDINARY_ANSWER, ordinary_answer), (STEADY_SESSION, steady_session))
            if len(self._records) < 10_000:  # bounded: a capture could send a million statuses
                self._records[key] = found
        return _quieted(found, record, self) if type(found) is tuple else found

    def manifest_rules(self, version: str) -> list:
        found = self._manifest_rules.get(version)
        if found is None:
            found = self._manifest_rules[version] = [
                rule for rule in self.plan.rules
                if not isinstance(rule, TrafficRule) and MANIFEST in rule.applies_to and version in rule.versions
                and (self.shard is None or rule.code in self.shard)
            ]
        return found


def _with_quieter(hooks: list, *predicates: tuple):
    """``hooks``, or, when some of them are quiet under some of the ``predicates`` ((name,
    function) pairs of mcplint.capture.ordinary), (hooks, [(bit, function)] of those predicates,
    {mask: the hooks left when the predicates of the bits in mask hold})."""
    used = [(name, test) for name, test in predicates
            if any(entry[0] is not None and name in entry[0].quiet_on for entry in hooks)]
    if not used:
        return hooks
    lists = {}
    for mask in range(1 << len(used)):
        holding = {name for bit, (name, _) in enumerate(used) if mask & (1 << bit)}
        lists[mask] = [entry for entry in hooks if entry[0] is None or not holding & entry[0].quiet_on]
    return hooks, [(1 << bit, test) for bit, (_, test) in enumerate(used)], lists


def _quieted(found: tuple, item, dispatch) -> list:
    """The hooks ``item`` goes to: ``_with_quieter``'s lists, by which predicates hold for it."""
    hooks, tests, lists = found
    if not dispatch.shortcuts:
        return hooks
    session, mask = dispatch.session, 0
    for bit, test in tests:
        if test(item, session):
            mask |= bit
    return lists[mask]
