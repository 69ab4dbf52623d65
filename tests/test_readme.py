"""The README stays true and short: the four jobs up front, the quick start CI runs, honest install
instructions, links that resolve. The reference lives in docs/ (tests/test_docs_site.py)."""

from __future__ import annotations

import json
import re

from conftest import ROOT, run_mcplint

README = ROOT / "README.md"
JOBS = ("Lint a repository in CI", "Audit a live server", "pre-commit", "GitHub Action")


def _text() -> str:
    return README.read_text("utf-8")


def _block_after(text: str, marker: str, lang: str) -> str:
    start = text.index(marker)
    match = re.compile(rf"```{lang}\n(.*?)```", re.S).search(text, start)
    return match.group(1)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading (lowercase, punctuation dropped, spaces to dashes)."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_the_readme_is_short_and_user_first():
    text = _text()
    assert 8_000 <= len(text.encode()) <= 15_000, "the README is a front page: move reference text into docs/"
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:2] == ["Install", "Quick start"]
    assert all(job in headings for job in JOBS)
    # Each job is reachable from the jump line near the top, and its section opens with an example.
    top = "\n".join(text.splitlines()[:40])
    for job in JOBS:
        assert f"(#{_anchor(job)})" in top, job
        section = text[text.index(f"## {job}\n"):]
        section = section[:section.index("\n## ", 3)]
        assert "```" in section.split("\n\n", 2)[1], f"{job}: start with the commands or the config"


def test_install_is_honest_about_pypi():
    text = _text()
    assert "not on PyPI yet" in text
    assert not re.search(r"pip install (?:-\S+ )*['\"]?mcplint-compliance", text)
    install = _block_after(text, "## Install", "sh")
    assert "pip install ." in install


def test_quick_start_is_two_commands_and_ci_runs_the_same_tests():
    block = _block_after(_text(), "## Quick start", "sh")
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    install, tests = commands
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && ")
    example = install.split("mcplint check ")[1].split()[0]
    assert (ROOT / example).is_file()
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert tests in ci and "python3 -m venv .venv" in ci and "pip install --quiet -e '.[test" in ci


def test_quick_start_example_finds_problems(tmp_path):
    """What the first command runs after installing: findings (exit 1), not an error (exit 2)."""
    proc = run_mcplint("check", str(ROOT / "fixtures/examples/weather-server.json"), "--format", "json")
    assert proc.returncode == 1, proc.stderr.decode()
    report = json.loads(proc.stdout)
    assert report["summary"]["errors"] == 0 and report["findings"]


def test_quick_start_says_where_shared_comes_from():
    section = _text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "../shared" in section and "skip" in section and "not public" in section


def test_links_resolve():
    text = _text()
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        if not path:
            assert anchor in anchors, target
        else:
            assert (ROOT / path).exists(), target


def test_the_hooks_and_action_shown_exist():
    text = _text()
    hooks = re.findall(r"^- id: (\S+)", (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"), re.M)
    shown = re.findall(r"- id: (\S+)", _block_after(text, "## pre-commit", "yaml"))
    assert shown and set(shown) <= set(hooks)
    action = (ROOT / "action.yml").read_text("utf-8")
    inputs = action[action.index("\ninputs:"):action.index("\noutputs:")]
    workflow = _block_after(text, "## GitHub Action", "yaml")
    used = re.findall(r"^ {10}#? ?([a-z-]+):", workflow, re.M)
    assert used and all(f"\n  {name}:" in inputs for name in used), used
