"""A big transcript is linted by two processes, each running half of the rules
(mcplint.capture.split): the findings, checklist and per-file-ignores use must be the ones a
single process gives, on every transcript we have and on a stitched one full of problems."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import FIXTURES, ROOT, run_mcplint
from mcplint import engine
from mcplint.capture import lint, split
from mcplint.config import Config

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _stitched(tmp_path: Path) -> Path:
    """Every JSONL example of the rule cases, one after another, as one transcript (three
    times over, so that rules of both shards pass their cap of findings per file)."""
    lines = []
    for case_file in sorted((FIXTURES / "rules").glob("*.yaml")):
        for case in YAML(typ="safe", pure=True).load(case_file.read_text("utf-8"))["cases"]:
            if case.get("format") == "jsonl":
                lines.extend(line for line in case["doc"].splitlines() if line.strip())
    path = tmp_path / "stitched.jsonl"
    # Over the cap in the parent too: answers with an id no request can have (MCP611) and
    # records from nobody (MCP600).
    lines += ['{"from": "server", "message": {"jsonrpc": "2.0", "id": 1.5, "result": {}}}'] * 120
    lines += ['{"from": "nobody", "message": {"jsonrpc": "2.0", "method": "ping"}}'] * 120
    path.write_text("\n".join(lines * 3) + "\n", "utf-8")
    return path


def _transcripts(tmp_path: Path) -> list[Path]:
    found = sorted(FIXTURES.rglob("*.jsonl"))
    if CORPUS.is_dir():
        found += sorted(CORPUS.rglob("*.jsonl"))
    return [_stitched(tmp_path), *found]


def _lint(path: Path, plan):
    plan.used_ignores = set()
    linted = lint.lint_capture(str(path), str(path), plan)
    seen = [(f.code, f.message, f.span, f.pointer, f.severity, f.fingerprint, f.related, f.tool)
            for f in sorted(linted.findings, key=lambda f: f.sort_key)]
    return seen, linted.unassessed, linted.version, linted.tools, set(plan.used_ignores)


def test_split_run_equals_a_single_process(tmp_path, monkeypatch):
    plan = engine.Plan.build(Config(select=["ALL"], per_file_ignores={"**/stitched.jsonl": ["MCP610", "MCP420"]}))
    parent, child = split.split_rules(plan.rules)
    forks: list[int] = []
    real_child = split.Child

    def counted(work):
        forks.append(1)
        return real_child(work)

    compared = 0
    for path in _transcripts(tmp_path):
        monkeypatch.setattr(split, "shards", lambda plan, size: None)
        try:
            serial = _lint(path, plan)
        except Exception as err:  # noqa: BLE001 - an unreadable fixture must fail alike when split
            serial = repr(err)
        monkeypatch.setattr(split, "shards", lambda plan, size: split.split_rules(plan.rules))
        monkeypatch.setattr(split, "Child", counted)
        try:
            both = _lint(path, plan)
        except Exception as err:  # noqa: BLE001
            both = repr(err)
        assert both == serial, path
        compared += 1
        if path.name == "stitched.jsonl":  # it must exercise both shards and the ignores
            codes = {entry[0] for entry in serial[0]}
            assert codes & parent and codes & child, codes
            assert serial[4], "no per-file-ignores entry was used"
            capped = {entry[0] for entry in serial[0] if "were left out" in entry[1]}
            assert capped & parent and capped & child, capped
    assert len(forks) == compared


def test_a_failing_child_is_redone_by_the_parent(tmp_path):
    calls = []

    def work():
        calls.append(os.getpid())
        if os.getpid() != parent_pid:
            os._exit(3)  # the child dies without a word
        return "done here"

    parent_pid = os.getpid()
    child = split.Child(work)
    assert child.result() == "done here"
    assert calls == [parent_pid]  # the child's call was in another process; ours is the redo


def test_when_a_transcript_is_split(tmp_path, monkeypatch):
    plan = engine.Plan.build(Config(select=["ALL"]))
    monkeypatch.setenv("MCPLINT_JOBS", "2")
    monkeypatch.setattr(split.threading, "active_count", lambda: 1)
    assert split.shards(plan, split.MIN_BYTES) is not None
    assert split.shards(plan, split.MIN_BYTES - 1) is None  # too small to pay
    monkeypatch.setenv("MCPLINT_JOBS", "1")
    assert split.shards(plan, split.MIN_BYTES) is None  # asked for one process
    monkeypatch.setenv("MCPLINT_JOBS", "2")
    monkeypatch.setattr(split, "in_pool_worker", True)
    assert split.shards(plan, split.MIN_BYTES) is None  # the folder's pool already uses the cores
    monkeypatch.setattr(split, "in_pool_worker", False)
    only_manifest = engine.Plan.build(Config(select=["MCP101"]))
    assert split.shards(only_manifest, split.MIN_BYTES) is None  # nothing for a child to do


@pytest.mark.parametrize("helper", ["first_of_response", "session_ids", "content"])
def test_rules_sharing_state_stay_with_the_parent(helper, monkeypatch):
    """first_of_response and session_ids advance on their first caller on a record, so every
    rule that calls them runs in one process; the content walk is shared for its cost."""
    import types

    from mcplint.rule import TrafficRule

    module = types.ModuleType("plugin_rule")
    setattr(module, helper, object())
    monkeypatch.setitem(sys.modules, "plugin_rule", module)

    def rule(code, check_exchange, where):
        kind = type(f"Rule{code}", (TrafficRule,), {"code": code, "check_exchange": check_exchange, "__module__": where})
        return kind()

    def hook(self, exchange, session, ctx):
        return iter(())

    rules = [rule("X1", hook, "plugin_rule"), rule("X2", hook, __name__), rule("X3", TrafficRule.check_exchange, __name__)]
    parent, child = split.split_rules(rules)
    assert parent == {"X1", "X3"} and child == {"X2"}


def test_the_command_splits_a_big_transcript_and_reports_the_same(tmp_path):
    """`mcplint check` of a transcript over split.MIN_BYTES: two processes, then the report
    of one (MCPLINT_JOBS=1), byte for byte, with findings of both shards in it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import transcript
    finally:
        sys.path.pop(0)
    path = transcript.write(tmp_path / "big.jsonl", 9_400)
    with open(path, "a", encoding="utf-8") as out:
        out.write(_stitched(tmp_path).read_text("utf-8"))
    assert path.stat().st_size >= split.MIN_BYTES
    split_run = run_mcplint("check", str(path), "--format", "json")
    serial_run = run_mcplint("check", str(path), "--format", "json", env={"MCPLINT_JOBS": "1"})
    assert split_run.returncode == serial_run.returncode == 1, split_run.stderr
    assert split_run.stdout == serial_run.stdout
    plan = engine.Plan.build(Config(select=["ALL"]))
    parent, child = split.split_rules(plan.rules)
    codes = {f["rule"] for f in json.loads(split_run.stdout)["findings"]}
    assert codes & parent and codes & child


def test_a_named_pipe_is_never_split(tmp_path, monkeypatch):
    """A transcript read from a named pipe was spooled once; the child could not read it again."""
    import subprocess

    source = _stitched(tmp_path)
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{source}' > '{fifo}'"])
    forks: list[int] = []
    monkeypatch.setattr(split, "shards", lambda plan, size: split.split_rules(plan.rules))
    monkeypatch.setattr(split, "Child", lambda work: forks.append(1))
    plan = engine.Plan.build(Config(select=["ALL"]))
    try:
        piped = lint.lint_capture(str(fifo), str(fifo), plan)
    finally:
        writer.wait(timeout=30)
    assert forks == [] and piped.findings
