"""Config discovery, validation and effect, through the real command."""

from __future__ import annotations

import json

import pytest

from conftest import run_mcplint
from mcplint import config

DUP = '{"tools": [{"name": "a_tool", "name": "a_tool", "inputSchema": {"type": "object"}}, {"name": "a_tool", "inputSchema": {"type": "object"}}]}'


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()  # a checkout: configs are looked for up to its root
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "tools.json").write_text(DUP)
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    return tmp_path


def check(repo, *args, cwd=None):
    proc = run_mcplint("check", str(repo / "mcp"), "-f", "json", *args, cwd=cwd or repo)
    payload = json.loads(proc.stdout) if proc.stdout else None
    return proc, payload


def rules_of(payload):
    return sorted({f["rule"] for f in payload["findings"]})


def test_pyproject_is_found_upward_from_the_working_directory(repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.mcplint]\nselect = ["MCP204"]\n')
    proc, payload = check(repo, cwd=repo / "sub" / "deeper")
    assert rules_of(payload) == ["MCP204"]


def test_pyproject_without_a_tool_table_is_passed_over(repo):
    (repo / "sub" / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    (repo / ".mcplint.yaml").write_text("select: [MCP101]\n")
    proc, payload = check(repo, cwd=repo / "sub" / "deeper")
    assert rules_of(payload) == ["MCP101"]


def test_a_config_above_the_repository_is_not_the_repositorys(tmp_path):
    """/tmp/.mcplint.yaml on a shared machine names commands `mcplint check` would run in every
    checkout under /tmp: configs are looked for up to the repository root, and outside a
    repository only in the working directory (git's safe.directory lesson)."""
    planted = tmp_path / ".mcplint.yaml"
    planted.write_text("servers:\n  - name: x\n    command: [touch, pwned]\n")
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "sub").mkdir()
    plain = tmp_path / "plain" / "sub"
    plain.mkdir(parents=True)
    assert config.discover(checkout / "sub") is None and config.discover(plain) is None
    (checkout / ".mcplint.yaml").write_text("select: [MCP101]\n")
    assert config.discover(checkout / "sub") == checkout / ".mcplint.yaml"
    (plain / ".mcplint.yaml").write_text("select: [MCP101]\n")
    assert config.discover(plain) == plain / ".mcplint.yaml"
    (checkout / ".git").rmdir()
    (checkout / ".git").write_text("gitdir: ../elsewhere\n")  # a worktree or submodule
    assert config.discover(checkout / "sub") == checkout / ".mcplint.yaml"


def test_cli_flags_override_config(repo):
    (repo / ".mcplint.yaml").write_text("select: [MCP101]\nfail-on: never\n")
    proc, payload = check(repo, "--select", "MCP204")
    assert rules_of(payload) == ["MCP204"] and proc.returncode == 0
    proc, _ = check(repo, "--select", "MCP204", "--fail-on", "error")
    assert proc.returncode == 1


def test_severity_override_and_off(repo):
    (repo / ".mcplint.yaml").write_text("select: [MCP101, MCP204]\nseverity:\n  duplicate-tool-name: info\n  MCP101: 'off'\n")
    proc, payload = check(repo)
    assert rules_of(payload) == ["MCP204"]
    assert {f["severity"] for f in payload["findings"]} == {"info"}
    assert proc.returncode == 0  # info is below the default fail level


def test_extend_select_and_ignore(repo):
    (repo / ".mcplint.yaml").write_text(
        "select: [MCP101]\nextend-select: [duplicate-tool-name, tool-name-missing]\nignore: [tool-name-missing]\n"
    )
    _, payload = check(repo)
    assert rules_of(payload) == ["MCP101", "MCP204"]


def test_per_file_ignores_with_glob_and_pointer(repo):
    (repo / ".mcplint.yaml").write_text(
        "select: [MCP101, MCP204]\nper-file-ignores:\n  'mcp/*.json#/tools/1': [duplicate-tool-name]\n  'other/**': [MCP101]\n"
    )
    _, payload = check(repo)
    assert [(f["rule"], f["pointer"]) for f in payload["findings"]] == [("MCP101", "/tools/0/name")]
    (repo / ".mcplint.yaml").write_text("select: [MCP101, MCP204]\nper-file-ignores:\n  'tools.json': [MCP101, MCP204]\n")
    proc, payload = check(repo)
    assert payload["findings"] == [] and proc.returncode == 0


def test_exclude_glob_applies_to_walked_files(repo):
    (repo / ".mcplint.yaml").write_text("exclude: ['mcp/**']\n")
    proc, _ = check(repo)
    assert proc.returncode == 2 and b"no MCP tool manifests or captures found" in proc.stderr


def test_protocol_version_from_config(repo):
    (repo / ".mcplint.yaml").write_text("protocol-version: 2025-06-18\nselect: [MCP204]\n")
    _, payload = check(repo)
    assert payload["summary"]["protocol_versions"] == ["2025-06-18"]


@pytest.mark.parametrize("content,fragment", [
    ("selct: [MCP101]\n", "selct: unknown setting"),
    ("severity:\n  MCP101: loud\n", "severity: MCP101: 'loud' is not one of error, warning, info, off"),
    ("protocol-version: 2020-01-01\n", "protocol-version: '2020-01-01' is not one of"),
    ("fail-on: sometimes\n", "fail-on: 'sometimes' is not one of"),
    ("select: MCP101\n", "select: Input should be a valid list"),
    ("select: [NOPE1]\n", "select: unknown rule 'NOPE1'"),
    ("severity:\n  no-such-rule: error\n", "severity: unknown rule 'no-such-rule'"),
    ("- just\n- a list\n", "config must be a mapping"),
    ("select: [unclosed\n", "invalid YAML"),
])
def test_bad_config_is_a_one_line_error_naming_key_and_file(repo, content, fragment):
    (repo / ".mcplint.yaml").write_text(content)
    proc, _ = check(repo)
    stderr = proc.stderr.decode()
    assert proc.returncode == 2, stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    assert fragment in stderr, stderr


def test_bad_pyproject_toml(repo):
    (repo / "pyproject.toml").write_text("[tool.mcplint]\nselect = [\n")
    proc, _ = check(repo)
    assert proc.returncode == 2 and b"pyproject.toml: invalid TOML" in proc.stderr


def test_severity_override_reaches_sarif_rule_metadata(repo):
    (repo / ".mcplint.yaml").write_text("select: [MCP204]\nseverity:\n  MCP204: info\n")
    proc = run_mcplint("check", str(repo / "mcp"), "-f", "sarif", cwd=repo)
    run = json.loads(proc.stdout)["runs"][0]
    (rule,) = run["tool"]["driver"]["rules"]
    assert rule["id"] == "MCP204" and rule["defaultConfiguration"]["level"] == "note"
    assert {r["level"] for r in run["results"]} == {"note"}


def test_a_config_of_too_many_values_is_refused_before_it_is_used(tmp_path):
    """200,000 extra-verbs or 50,000 per-file-ignores made every run take a minute (attack round 3, F7)."""
    from mcplint.errors import MCPLintError

    many = tmp_path / "many.yaml"
    many.write_text("ignore: [" + ", ".join(["MCP202"] * 25_000) + "]\n")
    with pytest.raises(MCPLintError, match="config holds more than 20,000 values"):
        config.load(many)
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                    "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n")
    with pytest.raises(MCPLintError, match="more than 80,000 nodes"):
        config.load(bomb)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (2 << 20) + "\n")
    with pytest.raises(MCPLintError, match="config file is over 1 MiB"):
        config.load(big)
