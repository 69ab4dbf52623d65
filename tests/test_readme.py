"""The README stays true: generated rules table, quick start, config examples."""

from __future__ import annotations

import re

from conftest import ROOT, UPDATE_GOLDEN
from mcplint import config, docs, registry
from mcplint.engine import Plan

README = ROOT / "README.md"


def _block_after(text: str, marker: str, lang: str) -> str:
    start = text.index(marker)
    match = re.compile(rf"```{lang}\n(.*?)```", re.S).search(text, start)
    return match.group(1)


def test_rules_table_is_current():
    text = README.read_text("utf-8")
    table = docs.rules_table(registry.all_rules())
    fresh = re.sub(
        rf"{re.escape(docs.README_START)}.*?{re.escape(docs.README_END)}",
        lambda _: f"{docs.README_START}\n{table}\n{docs.README_END}", text, flags=re.S,
    )
    if UPDATE_GOLDEN and fresh != text:
        README.write_text(fresh, "utf-8")
        text = fresh
    assert fresh == text, "README rules table is stale: run MCPLINT_UPDATE_GOLDEN=1 python -m pytest tests/test_readme.py"


def test_quick_start_is_two_commands_and_ci_runs_the_same_tests():
    block = _block_after(README.read_text("utf-8"), "## Quick start", "sh")
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    install, tests = commands
    example = install.split("mcplint check ")[1].split()[0]
    assert (ROOT / example).is_file()
    assert tests in (ROOT / ".ci" / "run").read_text("utf-8")


def test_config_examples_are_valid(tmp_path):
    text = README.read_text("utf-8")
    yaml_config = tmp_path / ".mcplint.yaml"
    yaml_config.write_text(_block_after(text, "## Configuration", "yaml"))
    toml_config = tmp_path / "pyproject.toml"
    toml_config.write_text(_block_after(text, "The same in `pyproject.toml`", "toml"))
    for path in (yaml_config, toml_config):
        Plan.build(config.load(path))  # raises on unknown keys, rules or options
