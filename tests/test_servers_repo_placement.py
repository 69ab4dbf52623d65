"""Repository mode, end to end, on what a hand review of published servers found: a server run
from build output (dist/, build/) is placed there, a phrase finding lands on the phrase in the
source as it does in a manifest, a server that cannot start is not called a file, and a Python
server of resource templates only is still read from its source when it cannot start."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from conftest import run_mcplint
from mcplint.document.span import Span
from repos_support import REPOS, node_skip_reason


def _located(proc) -> set:
    return {(f["rule"], f["path"], f["line"], f["column"]) for f in json.loads(proc.stdout)["findings"]}


def _copy(tmp_path: Path, name: str) -> Path:
    repo = tmp_path / name
    shutil.copytree(REPOS / name, repo, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
    return repo


# -- P1: build output ----------------------------------------------------------------------------
def test_a_python_server_run_from_build_output_is_placed_there(tmp_path):
    repo = _copy(tmp_path, "lowlevel-notes")
    (repo / "build").mkdir()
    (repo / "server.py").rename(repo / "build" / "server.py")
    (repo / ".mcplint.yaml").write_text(  # no source: the whole repository, which the walk skips build/ of
        f"servers:\n  - name: notes\n    command: [{json.dumps(sys.executable)}, build/server.py]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert ("MCP202", "build/server.py", 25, 14) in _located(proc)
    assert all(path == "build/server.py" for _, path, _, _ in _located(proc)), proc.stderr.decode()
    assert "could not be placed" not in proc.stderr.decode()


def test_a_javascript_server_run_from_dist_is_placed_there(tmp_path):
    if reason := node_skip_reason(REPOS / "ts-todo"):
        pytest.skip(reason)
    repo = _copy(tmp_path, "ts-todo")
    (repo / "dist").mkdir()
    (repo / "lowlevel.mjs").rename(repo / "dist" / "index.js")
    (repo / "dist" / "package.json").write_text('{"type": "module"}')
    (repo / ".mcplint.yaml").write_text("servers:\n  - name: tags\n    command: [node, dist/index.js]\n"
                                        "    source: [.]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert _located(proc) == {("MCP202", "dist/index.js", 17, 11), ("MCP311", "dist/index.js", 23, 9)}


# -- P5: a phrase inside a text --------------------------------------------------------------------
CONCATENATED = '''const TOOL = {
    description: "Searches for places. " +
        "Best for restaurants, services, etc. " +
        "Returns details, etc.",
};
'''
REGION = Span(2, 18, 4, 31)  # the whole concatenation, as the source reader gives it


@pytest.mark.parametrize("phrase, expected", [
    (("etc.", 0, 2), Span(3, 42, 3, 46)),  # the first of two, inside the second literal
    (("etc.", 1, 2), Span(4, 27, 4, 31)),
    (("etc.", 0, 1), None),  # the source holds it twice, the text once: cannot tell which
    (("places. Best", 0, 1), None),  # split over two literals
])
def test_a_phrase_is_found_inside_the_region_that_writes_the_text(phrase, expected):
    from mcplint.servers.phrase import Phrase, on_phrase

    assert on_phrase(CONCATENATED, REGION, Phrase(*phrase)) == expected


def test_a_phrase_finding_lands_on_the_phrase_in_a_docstring(tmp_path):
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "server.py").write_text('''from mcp.server.mcpserver import MCPServer

mcp = MCPServer("demo")


@mcp.tool()
def search_docs(query: str) -> str:
    """Search the documentation.

    Finds pages, tickets, issues, etc. in the local index.
    """
    return query


if __name__ == "__main__":
    mcp.run()
''', encoding="utf-8")
    (repo / ".mcplint.yaml").write_text(
        f"servers:\n  - name: demo\n    command: [{json.dumps(sys.executable)}, app/server.py]\n")
    proc = run_mcplint("check", "--format", "json", "--select", "MCP221", cwd=repo)
    assert _located(proc) == {("MCP221", "app/server.py", 10, 35)}, proc.stderr.decode()


# -- P8: a server that cannot start ----------------------------------------------------------------
def test_a_server_that_cannot_start_is_not_called_a_file(tmp_path):
    repo = _copy(tmp_path, "lowlevel-notes")
    (repo / ".mcplint.yaml").write_text("servers:\n  - name: gone\n    command: [no-such-program-xyz]\n")
    rich = run_mcplint("check", cwd=repo)
    assert rich.returncode == 2
    assert rich.stdout.decode().startswith("Nothing was linted: 1 server could not be started or listed")
    assert "file" not in rich.stdout.decode()
    github = run_mcplint("check", "--format", "github", cwd=repo).stdout.decode()
    assert "mcplint: nothing was linted: 1 server could not be started or listed" in github
    summary = json.loads(run_mcplint("check", "--format", "json", cwd=repo).stdout)["summary"]
    assert (summary["errors"], summary["server_errors"]) == (1, 1)


# -- P7: the offline fallback for a server of resource templates only --------------------------------
def test_a_python_server_of_resource_templates_is_read_from_its_source(tmp_path):
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "server.py").write_text('from fastmcp import FastMCP\n\nmcp = FastMCP("demo")\n\n\n'
                                            '@mcp.resource("/article/{title}")\ndef article(title: str) -> dict:\n'
                                            '    """Fetch an article."""\n    return {"title": title}\n')
    (repo / ".mcplint.yaml").write_text("servers:\n  - name: demo\n"
                                        "    command: [python3-not-installed-here, -m, app.server]\n")
    proc = run_mcplint("check", "--servers-only", "--quiet", cwd=repo)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "read from the Python source instead" in proc.stderr.decode()
