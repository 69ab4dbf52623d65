"""The documentation site (mkdocs.yml, docs/): it builds with `mkdocs build --strict` (broken links and
anchors fail), every page is in the navigation, its generated parts are current, and nothing in it
claims an install that does not work."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import unicodedata

import pytest
from conftest import ROOT, UPDATE_GOLDEN
from mcplint import checklist, registry

DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"
HINT = "run MCPLINT_UPDATE_GOLDEN=1 python -m pytest tests/test_docs_site.py"


def _pages() -> list[str]:
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


def _nav() -> list[str]:
    from ruamel.yaml import YAML

    found: list[str] = []

    def walk(node):
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(YAML(typ="safe").load(CONFIG.read_text("utf-8"))["nav"])
    return found


def test_the_site_builds_strict(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs and mkdocs-material are not installed (pip install -e '.[docs]')")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # the theme's end-of-life banner, not a problem here
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(CONFIG),
         "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "rules" / "MCP204" / "index.html").is_file()
    assert (tmp_path / "site" / "audit" / "index.html").is_file()


def test_every_page_is_in_the_navigation():
    nav = _nav()
    assert len(nav) == len(set(nav))
    written = [p for p in _pages() if not re.fullmatch(r"rules/MCP\d{3}\.md", p)]  # reached from rules/index.md
    assert sorted(nav) == written
    assert nav[0] == "index.md"


def test_pages_are_ci_and_the_extra_installs_mkdocs():
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    extra = re.search(r"^docs = \[(.*?)^\]", pyproject, re.M | re.S).group(1)
    assert '"mkdocs>=' in extra and '"mkdocs-material>=' in extra
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "-e '.[test,docs]'" in ci and "mkdocs build --strict" in ci


# --- links, without mkdocs: what the strict build checks, so a checkout without the docs extra
# --- still catches a broken link or anchor between pages.
def _slug(heading: str) -> str:
    """Python-Markdown's toc slug (what mkdocs anchors are), applied to the heading's text."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _headings(text: str) -> set[str]:
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {_slug(h) for h in re.findall(r"^#{1,6} +(.+?)\s*$", text, re.M)}


def test_links_between_pages_resolve():
    pages = {p: (DOCS / p).read_text("utf-8") for p in _pages()}
    anchors = {p: _headings(text) for p, text in pages.items()}
    broken = []
    for page, text in pages.items():
        prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if resolved not in pages:
                broken.append(f"{page}: {target} (links must stay inside docs/)")
            elif anchor and anchor not in anchors[resolved]:
                broken.append(f"{page}: {target} (no such heading)")
    assert broken == []


def test_no_page_claims_the_package_is_on_pypi():
    claim = re.compile(r"pip install (?:-\S+ )*['\"]?mcplint-compliance")
    for path in [ROOT / "README.md", CONFIG, *DOCS.rglob("*.md")]:
        assert not claim.search(path.read_text("utf-8")), f"{path}: mcplint is not on PyPI yet"


# --- the checklist page's table, generated from the registry -----------------------------------
START, END = "<!-- checklist-table:start -->", "<!-- checklist-table:end -->"


def checklist_table() -> str:
    rules = [r for r in registry.all_rules() if r.__module__.startswith("mcplint_rules.")]
    rows = ["| item | what it asks | judged on | since | rules |", "| --- | --- | --- | --- | --- |"]
    for item, title in checklist.ITEMS.items():
        listing, traffic = item in checklist.LISTING_ITEMS, item in checklist.TRAFFIC_ITEMS
        where = "HTTP traffic" if item in checklist.HTTP_ITEMS else "traffic"
        judged = "listing and traffic" if listing and traffic else "listing" if listing else where
        since = checklist.FEATURE_SINCE.get(item, ("all versions",))[0]
        codes = sorted(r.code for r in rules if item in r.checklist)
        links = ", ".join(f"[{code}](rules/{code}.md)" for code in codes) or "—"
        rows.append(f"| {item} | {title} | {judged} | {since} | {links} |")
    return "\n".join(rows)


def test_the_checklist_table_is_current():
    page = DOCS / "checklist.md"
    text = page.read_text("utf-8")
    fresh = re.sub(rf"{re.escape(START)}.*?{re.escape(END)}", lambda _: f"{START}\n{checklist_table()}\n{END}",
                   text, flags=re.S)
    if UPDATE_GOLDEN and fresh != text:
        page.write_text(fresh, "utf-8")
        text = fresh
    assert fresh == text, f"the checklist table in docs/checklist.md is stale: {HINT}"


# --- examples that must stay valid ---------------------------------------------------------------
def _block_after(text: str, marker: str, lang: str) -> str:
    match = re.compile(rf"```{lang}\n(.*?)```", re.S).search(text, text.index(marker))
    return match.group(1)


def test_the_configuration_examples_are_valid(tmp_path):
    from mcplint import config
    from mcplint.engine import Plan

    text = (DOCS / "configuration.md").read_text("utf-8")
    yaml_config = tmp_path / ".mcplint.yaml"
    yaml_config.write_text(_block_after(text, "# Configuration", "yaml"))
    toml_config = tmp_path / "pyproject.toml"
    toml_config.write_text(_block_after(text, "The same in `pyproject.toml`", "toml"))
    for path in (yaml_config, toml_config):
        Plan.build(config.load(path))  # raises on unknown keys, rules or options


def test_the_hooks_shown_exist():
    hooks = set(re.findall(r"^- id: (\S+)", (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"), re.M))
    for page in ("ci.md", "repository-mode.md"):
        shown = set(re.findall(r"- id: (mcplint\S*)", (DOCS / page).read_text("utf-8")))
        assert shown and shown <= hooks, page
