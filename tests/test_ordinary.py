"""The dispatcher skips the rules that declare themselves quiet on plainly ordinary traffic
(mcplint.capture.ordinary). The contract is checked two ways on every capture we have (the
fixtures, ../shared/corpus when present, and every JSONL rule case stitched into one):
each quiet rule, called anyway, finds nothing and marks no checklist item wherever its
predicate holds; and the findings and checklist are the same with and without the shortcut."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES
from mcplint import engine
from mcplint.capture import lint, ordinary
from mcplint.capture.dispatch import Dispatch
from mcplint.config import Config
from mcplint.rule import TrafficRule
from test_split import CORPUS, _lint, _stitched

PREDICATES = {
    ordinary.PLAIN_SUCCESS: ("check_message", ordinary.plain_success),
    ordinary.ORDINARY_ANSWER: ("check_record", ordinary.ordinary_answer),
    ordinary.STEADY_SESSION: ("check_record", ordinary.steady_session),
    ordinary.PLAIN_CALL: ("check_exchange", ordinary.plain_call),
}


def _asked(hook_name: str, item) -> bool:
    """Whether the dispatcher asks the predicate of this message, record or exchange."""
    if hook_name == "check_message":
        return item.sender == "server" and item.kind == "response"
    if hook_name == "check_record":
        return item.sender == "server"
    response = item.response
    failed = response.error is not None or (response.result is not None and response.result.get("isError") is True)
    return item.method == "tools/call" and not failed


def _near_misses(tmp_path: Path, version: str) -> Path:
    """An ordinary POST and answer, then the same with one thing changed at a time: each
    change is one a predicate must notice (a quiet rule would find it)."""
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": version}} if version >= "2026" else {}
    headers = {"Content-Type": "application/json", "MCP-Protocol-Version": version, "Mcp-Session-Id": "s1"}
    lines = [] if meta else [
        _line("client", {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}, "POST", {}),
        _line("server", {"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}},
            200, {"Content-Type": "application/json", "Mcp-Session-Id": "s1"}),
    ]
    answer = {"Content-Type": "application/json"}
    variants = [
        {}, {"headers": {**headers, "Mcp-Session-Id": "bad id"}, "answer": {**answer, "Mcp-Session-Id": "bad id"}},
        {"answer": {**answer, "Mcp-Session-Id": "s2"}}, {"answer": {**answer, "Mcp-Session-Id": "bad\tid"}},
        {"headers": {**headers, "MCP-Protocol-Version": "1999-01-01"}}, {"headers": {**headers, "Mcp-Session-Id": "s3"}},
        {"status": 202}, {"status": 204}, {"answer": {"Content-Type": "text/plain"}}, {"answer": {}},
        {"answer": {"Content-Type": "text/event-stream"}}, {"method": "GET"}, {"method": "DELETE"},
        {"headers": {**headers, "Origin": "https://evil.example"}}, {"url": "/messages?sessionId=1"},
        {"request": "notification"}, {"result": {"isError": True, "content": []}}, {"result": 5},
        {"response": {"jsonrpc": "1.0"}}, {"response": {"id": True}}, {"response": {"id": 99}},
        {"response": {"error": {"code": -32603, "message": "x"}}}, {"response": {"id": 1.5}},
        {"id": 2.5}, {"id": False}, {"id": None},  # sent by the client too: pending, but not a valid id
    ]
    for n, change in enumerate(variants, 1):
        ident = change.get("id", n)
        request = {"jsonrpc": "2.0", "id": ident, "method": "tools/list", "params": dict(meta)}
        if change.get("request") == "notification":
            request = {"jsonrpc": "2.0", "method": "notifications/initialized", "params": dict(meta)}
        response = {"jsonrpc": "2.0", "id": ident, "result": change.get("result", {"tools": []}), **change.get("response", {})}
        lines.append(_line("client", request, change.get("method", "POST"), change.get("headers", headers),
                           change.get("url", "/mcp")))
        lines.append(_line("server", response, change.get("status", 200), change.get("answer", answer)))
        lines.append(_line("server", response, change.get("status", 200), change.get("answer", answer)))  # an SSE event
    # A request left pending (answered 202, no body), then its id in the answer to a notification.
    lines.append(_line("client", {"jsonrpc": "2.0", "id": 500, "method": "tools/list", "params": dict(meta)}, "POST",
                       headers))
    lines.append(_line("server", None, 202, {}))
    lines.append(_line("client", {"jsonrpc": "2.0", "method": "notifications/initialized", "params": dict(meta)},
                       "POST", headers))
    lines.append(_line("server", {"jsonrpc": "2.0", "id": 500, "result": {"tools": []}}, 200, answer))
    path = tmp_path / f"near-misses-{version}.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _calls(tmp_path: Path, version: str, capabilities: dict) -> Path:
    """tools/call answers over stdio: a plain one, then near misses of ``plain_call``."""
    def call(ident, name="t"):
        return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": {"name": name, "arguments": {}}}

    def answer(ident, **result):
        return {"jsonrpc": "2.0", "id": ident, "result": {"content": [{"type": "text", "text": "ok"}], **result}}

    pairs = [
        ({"jsonrpc": "2.0", "id": 0, "method": "tools/list"},  # before initialize, as is the call after it
         {"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}),
        (call(1), answer(1)),
        ({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
         {"jsonrpc": "2.0", "id": 2, "result": {"protocolVersion": version, "capabilities": capabilities,
                                                 "serverInfo": {"name": "s", "version": "1"}}}),
        ({"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
         {"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}),
        (call(4), answer(4)), (call(5, "gone"), answer(5)), ([call(6)], [answer(6)]),
        (call(7), answer(7, resultType="input_required")), (call(8), answer(8, isError=True)),
    ]
    lines = []
    for request, response in pairs:
        lines.append(json.dumps({"from": "client", "message": request}))
        lines.append(json.dumps({"from": "server", "message": response}))
    path = tmp_path / f"calls-{version}-{next(iter(capabilities))}.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _line(sender: str, message, method_or_status, headers: dict, url: str = "/mcp") -> str:
    if sender == "client":
        http = {"method": method_or_status, "url": f"http://127.0.0.1:8000{url}", "headers": headers}
    else:
        http = {"status": method_or_status, "headers": headers}
    return json.dumps({"from": sender, "message": message, "http": http})


def _captures(tmp_path: Path) -> list[Path]:
    found = sorted(FIXTURES.rglob("*.jsonl")) + sorted(FIXTURES.rglob("*.har"))
    if CORPUS.is_dir():
        found += sorted(CORPUS.rglob("*.jsonl")) + sorted(CORPUS.rglob("*.har"))
    near = [_near_misses(tmp_path, version) for version in ("2025-06-18", "2025-11-25", "2026-07-28")]
    calls = [_calls(tmp_path, version, capabilities) for version in ("2025-06-18", "2025-11-25", "2026-07-28")
             for capabilities in ({"tools": {}}, {"prompts": {}})]
    return [*near, *calls, _stitched(tmp_path), *found]


def _quiet_rules(plan) -> list[TrafficRule]:
    return [rule for rule in plan.rules if isinstance(rule, TrafficRule) and rule.quiet_on]


def test_the_families_are_the_rules_the_predicates_name():
    """A rule joins a family only with its predicate's docstring naming it (the contract)."""
    plan = engine.Plan.build(Config(select=["ALL"]))
    quiet = _quiet_rules(plan)
    assert {rule.code for rule in quiet} >= {"MCP610", "MCP615", "MCP816", "MCP821"}
    for rule in quiet:
        for name in rule.quiet_on:
            hook, predicate = PREDICATES[name]
            assert getattr(type(rule), hook) is not getattr(TrafficRule, hook), (rule.code, hook)
            assert rule.code in predicate.__doc__, (rule.code, name)


def test_quiet_rules_find_nothing_where_their_predicate_holds(tmp_path, monkeypatch):
    plan = engine.Plan.build(Config(select=["ALL"]))
    monkeypatch.setattr(Dispatch, "shortcuts", False)
    held: dict[str, int] = {}
    for rule in _quiet_rules(plan):
        for name in rule.quiet_on:
            hook_name, predicate = PREDICATES[name]
            original = getattr(rule, hook_name)

            def checked(item, session, ctx, rule=rule, original=original, predicate=predicate, hook_name=hook_name):
                quiet = _asked(hook_name, item) and predicate(item, session)
                before = set(session.assessed)
                found = list(original(item, session, ctx))
                if quiet:
                    held[rule.code] = held.get(rule.code, 0) + 1
                    assert found == [] and session.assessed == before, (rule.code, item, found)
                return iter(found)

            monkeypatch.setattr(rule, hook_name, checked, raising=False)
    for path in _captures(tmp_path):
        try:
            lint.lint_capture(str(path), str(path), plan)
        except Exception as err:  # noqa: BLE001 - an unreadable fixture is another test's business
            if "AssertionError" in type(err).__name__:
                raise
    # The check means something only if the predicates held for every quiet rule somewhere.
    assert set(held) == {rule.code for rule in _quiet_rules(plan)}, held


def test_the_shortcut_changes_no_finding_and_no_checklist_item(tmp_path, monkeypatch):
    plan = engine.Plan.build(Config(select=["ALL"]))
    compared = 0
    for path in _captures(tmp_path):
        results = []
        for on in (True, False):
            monkeypatch.setattr(Dispatch, "shortcuts", on)
            try:
                results.append(_lint(path, plan))
            except Exception as err:  # noqa: BLE001 - an unreadable fixture must fail alike
                results.append(repr(err))
        assert results[0] == results[1], path
        compared += 1
    assert compared > (50 if CORPUS.is_dir() else 40)  # ../shared's corpus adds its captures when present


def test_steady_session_waits_for_the_item_mcp810_marks():
    plan = engine.Plan.build(Config(select=["ALL"]))
    mcp810 = next(rule for rule in plan.rules if rule.code == "MCP810")
    assert mcp810.checklist == (ordinary.VERSION_HEADER_ITEM,)
