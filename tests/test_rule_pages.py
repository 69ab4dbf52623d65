"""Rule documentation: docs/rules/<CODE>.md and the rules table in docs/rules/index.md are generated
from the registry and kept current; SARIF helpUri links to the pages; `mcplint explain` shows the same
page."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

from conftest import ROOT, UPDATE_GOLDEN, run_mcplint
from mcplint import docs, registry
from mcplint.reporters.sarif import HELP_URI

PAGES = ROOT / docs.PAGES_DIR
BUILTIN = [r for r in registry.all_rules() if r.__module__.startswith("mcplint_rules.")]


def test_rule_pages_are_current():
    fresh = docs.rule_pages(BUILTIN)
    if UPDATE_GOLDEN:
        PAGES.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in PAGES.glob("*.md")) - set(fresh):
            (PAGES / stale).unlink()
        for name, text in fresh.items():
            if not (PAGES / name).exists() or (PAGES / name).read_text("utf-8") != text:
                (PAGES / name).write_text(text, "utf-8")
    on_disk = {p.name: p.read_text("utf-8") for p in PAGES.glob("*.md")}
    hint = "run MCPLINT_UPDATE_GOLDEN=1 python -m pytest tests/test_rule_pages.py"
    assert sorted(set(fresh) - set(on_disk)) == [], f"missing rule pages: {hint}"
    assert sorted(set(on_disk) - set(fresh)) == [], f"pages for rules that no longer exist: {hint}"
    stale = sorted(name for name in fresh if fresh[name] != on_disk[name])
    assert stale == [], f"stale rule pages {stale}: {hint}"


def test_every_page_is_the_rules_documentation():
    for rule in BUILTIN:
        text = (PAGES / f"{rule.code}.md").read_text("utf-8")
        assert text.endswith(docs.markdown(rule))
        assert f"# {rule.code} {rule.name}\n" in text and "## Bad" in text and "## Good" in text


def test_sarif_help_uri_and_the_rules_table_point_at_the_pages():
    assert HELP_URI.endswith("/blob/main/" + docs.PAGE_LINK)
    index = (PAGES / "index.md").read_text("utf-8")
    assert docs.rules_table(BUILTIN, "{code}.md") in index
    links = re.findall(r"\[(MCP\d{3})\]\(([^)]+)\)", index)
    assert {code for code, _ in links} == {r.code for r in BUILTIN}
    for code, target in links:
        assert target == f"{code}.md" and (PAGES / target).is_file()


# Internal module names (`mcplint.risk`) mean nothing to a user reading a rule's page or `mcplint
# explain`: the docs say what the rule looks at. `mcplint.lock` is the lock file's name, not a module.
_INTERNAL = re.compile(r"\bmcplint(?:\.(?!lock\b)[A-Za-z_]|_rules\b)")


def test_rule_docs_never_name_internal_modules():
    named = {rule.code: _INTERNAL.findall(docs.docstring(rule)) for rule in registry.all_rules()}
    assert {code: found for code, found in named.items() if found} == {}
    assert _INTERNAL.search("see `mcplint.risk`") and _INTERNAL.search("mcplint_rules")
    assert not _INTERNAL.search("mcplint check --lock mcplint.lock")


def test_explain_piped_prints_the_page_as_markdown():
    proc = run_mcplint("explain", "MCP501")
    rule = registry.get("MCP501")
    assert proc.returncode == 0 and proc.stdout.decode() == docs.markdown(rule)
    assert run_mcplint("explain", "tool-definition-changed").stdout == proc.stdout


def test_explain_on_a_terminal_renders_the_markdown():
    main, child = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "explain", "MCP204"], cwd=ROOT, env=env,
                            stdin=child, stdout=child, stderr=child, close_fds=True)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert proc.wait(timeout=60) == 0
    text = b"".join(chunks).decode("utf-8", "replace")
    assert "MCP204 duplicate-tool-name" in text and "Two tools in one manifest have the same name." in text
    assert "# MCP204" not in text and "```" not in text and "## Why" not in text  # rendered, not raw
    assert '"search_issues"' in text  # the examples are shown as code


def test_explain_unknown_rule_is_a_one_line_error():
    proc = run_mcplint("explain", "MCP999")
    assert proc.returncode == 2 and proc.stderr.decode().strip().count("\n") == 0
