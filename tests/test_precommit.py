"""The pre-commit hooks, run for real: `pre-commit try-repo` against throwaway git repos.

try-repo pip-installs the hook repository into a fresh hook environment (a store of its own
each time), which takes a while: this module runs exactly three try-repo invocations, in
parallel, from one module-scoped fixture: the `mcplint` hook on a good and a bad repo (both with
a config whose server would leave a marker file if it were started), and `mcplint-servers` on a
copy of fixtures/repos/fastmcp-weather.
The hook repository is a snapshot of this working tree (every file git does not ignore, new
ones included) rather than the checkout itself: try-repo on a checkout takes only its committed,
staged and modified tracked files, so a new module not yet added to git would be missing from
the hook environment while the rest of the suite tests it. On a clean clone both are the same.
The command-level behaviour the hook relies on (``--skip-non-manifests``) is tested directly
below, quickly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from typing import NamedTuple

from conftest import FIXTURES, ROOT, run_mcplint

GOOD_JSON = (FIXTURES / "manifests" / "clean-server.json").read_text(encoding="utf-8")
BAD_JSON = (FIXTURES / "reporters" / "input-bad.json").read_text(encoding="utf-8")
GOOD_YAML = """\
tools:
  - name: get_forecast
    title: Get Forecast
    description: Get the weather forecast for a city for the next few days.
    inputSchema:
      type: object
      properties:
        city:
          type: string
          description: City name, e.g. "Berlin".
          minLength: 1
          maxLength: 100
      required: [city]
      additionalProperties: false
    annotations:
      readOnlyHint: true
"""
def _transcript() -> str:
    import json

    tools = json.loads(GOOD_JSON)["tools"] if GOOD_JSON.lstrip().startswith("{") else json.loads(GOOD_JSON)
    version = "2025-11-25"
    records = [
        ("client", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        ("server", {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": "w", "version": "1"}}}),
        ("client", {"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ("client", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        ("server", {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}),
    ]
    return "".join(json.dumps({"from": who, "message": message}) + "\n" for who, message in records)


UNRELATED = {
    "package.json": '{"name": "weather-server", "version": "1.0.0", "scripts": {"start": "node index.js"}}\n',
    "tsconfig.json": '{\n  // comments: not valid JSON\n  "compilerOptions": {"strict": true,},\n}\n',
    "docker-compose.yml": "services:\n  server:\n    image: weather:latest\n",
    "events.jsonl": '{"level": "info", "msg": "started"}\n{"level": "info", "msg": "stopped"}\n',
}
GOOD_TRANSCRIPT = _transcript()
# Looks like a broken manifest, so `check --skip-non-manifests` would fail (exit 2) on it:
# the hook's file types must keep it from ever being passed.
PYTHON_FILE = ("server/tools.py", '{"tools": [  # not JSON, and not a manifest\n')
# A server the files hook must never start: started, it leaves a marker file in the repo.
CANARY_CONFIG = """\
servers:
  - name: canary
    command: [python, -c, "open('server-started', 'w').close()"]
"""
WEATHER = FIXTURES / "repos" / "fastmcp-weather"
# `python` in the hook is the hook environment's own, which has mcplint but not the mcp SDK.
WEATHER_CONFIG = """\
fail-on: warning
servers:
  - name: weather
    command: [python, -m, weather]
    source: [weather/]
"""
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


OPTION_NAMED = "--write-baseline=zz.json"


def _git_repo(path: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            (path / name).write_bytes(content)
        else:
            (path / name).write_text(content, encoding="utf-8")
    env = {**_clean_env(), **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-gpg-sign", "-m", "files"]):
        subprocess.run(["git", *args], cwd=path, env=env, check=True, capture_output=True)
    return path


def _clean_env() -> dict[str, str]:
    """No git variables of an outer hook or repo leak into the throwaway repos."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "FORCE_COLOR"}


def _snapshot(path: Path) -> Path:
    """This working tree as a one-commit git repo."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, env=_clean_env(), capture_output=True)
    if listed.returncode != 0:
        pytest.skip("the project is not a git checkout: nothing for pre-commit try-repo to install")
    files = {}
    for name in listed.stdout.decode("utf-8").split("\0"):
        if name and (ROOT / name).is_file():  # listed but deleted in the working tree: gone
            files[name] = (ROOT / name).read_bytes()
    return _git_repo(path, files)


class Run(NamedTuple):
    code: int
    output: str
    repo: Path


def _weather_files() -> dict[str, bytes]:
    return {str(path.relative_to(WEATHER)): path.read_bytes() for path in sorted(WEATHER.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts}


@pytest.fixture(scope="module")
def try_repo(tmp_path_factory):
    """The three try-repo runs at once: {"good", "bad", "servers"} -> Run(code, output, repo)."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    hook_repo = _snapshot(tmp_path_factory.mktemp("mcplint-snapshot"))
    base = {**UNRELATED, "mcp/good.json": GOOD_JSON, "mcp/good.yaml": GOOD_YAML, PYTHON_FILE[0]: PYTHON_FILE[1],
            "mcp/session.jsonl": GOOD_TRANSCRIPT, ".mcplint.yaml": CANARY_CONFIG}
    runs = {
        "good": ("mcplint", _git_repo(tmp_path_factory.mktemp("good-repo"), base)),
        # A committed file named as an option: with no `--` in the entry it silenced the hook (attack round 5)
        "bad": ("mcplint", _git_repo(tmp_path_factory.mktemp("bad-repo"), {**base, "mcp/bad.json": BAD_JSON,
                                                                          OPTION_NAMED: '{"compilerOptions": {}}'})),
        "servers": ("mcplint-servers", _git_repo(tmp_path_factory.mktemp("weather-repo"),
                                                 {**_weather_files(), ".mcplint.yaml": WEATHER_CONFIG})),
    }
    env = {**_clean_env(), "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--all-files", "--verbose",
             "--color", "never"],
            cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for name, (hook, repo) in runs.items()
    }
    results = {}
    for name, proc in procs.items():
        out, _ = proc.communicate(timeout=900)
        results[name] = Run(proc.returncode, out.decode("utf-8", "replace"), runs[name][1])
    return results


def _hook_output(output: str, hook: str = "mcplint") -> str:
    """What mcplint printed (after pre-commit's own header lines)."""
    return output.split(f"- hook id: {hook}\n", 1)[-1]


def test_hook_passes_on_good_manifests_and_unrelated_files(try_repo):
    code, output, _ = try_repo["good"]
    assert code == 0, output
    hook = _hook_output(output)
    assert "mcplint" in output and "Passed" in output
    # good.json, good.yaml and session.jsonl linted; package.json, tsconfig.json, docker-compose.yml,
    # .mcplint.yaml and a log in JSONL skipped; tools.py never passed (it would be exit 2)
    assert "in 2 manifests and 1 capture" in hook and "5 files skipped" in hook, hook
    assert "tools.py" not in output
    # --quiet: a passing run prints its one summary line and nothing else
    printed = [line for line in hook.splitlines() if line.strip() and not line.startswith("- duration:")]
    assert len(printed) == 1 and printed[0].startswith("No problems found in 2 manifests and 1 capture"), hook


def test_hook_fails_on_a_bad_manifest(try_repo):
    code, output, _ = try_repo["bad"]
    assert code == 1, output
    hook = _hook_output(output)
    assert "Failed" in output and "- exit code: 1" in output
    assert "mcp/bad.json:" in hook and "in 3 manifests and 1 capture" in hook and "6 files skipped" in hook, hook
    assert not (try_repo["bad"].repo / "zz.json").exists()  # the file name was a file, not --write-baseline
    assert "tools.py" not in output and "package.json" not in hook
    assert "Checklist" not in hook and hook.rstrip().splitlines()[-1].startswith("Found "), hook  # --quiet


@pytest.mark.parametrize("name", ["good", "bad"])
def test_files_hook_never_starts_a_configured_server(try_repo, name):
    code, output, repo = try_repo[name]
    assert "canary" not in _hook_output(output), output  # not started, so nothing to say about it
    assert not (repo / "server-started").exists()


def test_canary_server_would_leave_its_marker_when_started(tmp_path):
    # The control for the test above: `check` without paths starts it, and the marker appears.
    (tmp_path / ".mcplint.yaml").write_text(CANARY_CONFIG, encoding="utf-8")
    (tmp_path / "good.json").write_text(GOOD_JSON, encoding="utf-8")
    run_mcplint("check", cwd=tmp_path)
    assert (tmp_path / "server-started").exists()


def test_servers_hook_lints_the_configured_server_onto_its_source_lines(try_repo):
    code, output, _ = try_repo["servers"]
    assert code == 1, output  # fail-on: warning in the config
    assert "Failed" in output and "- exit code: 1" in output
    hook = _hook_output(output, "mcplint-servers")
    # the planted problems, each on the source line and column that defines it
    for expected in (
        "weather/server.py:24:71: warning[MCP221 marketing-language]",  # on the phrase
        "weather/server.py:33:16: warning[MCP202 tool-name-style]",
        "weather/server.py:34:16: warning[MCP311 parameter-description-missing] Parameter 'region'",
        "weather/server.py:41:5: warning[MCP211 description-not-imperative]",
        "weather/server.py:46:5: info[MCP411 destructive-tool-unannotated]",
        "weather/server.py:59:39: warning[MCP220 emoji-in-text]",  # on the emoji
    ):
        assert expected in hook, hook
    assert "in 1 server (5 tools)" in hook, hook
    # The hook's environment has mcplint but not the mcp SDK: the server cannot start, and the
    # report says its tools were read from the source instead.
    assert "server weather could not be started" in hook and "No module named 'mcp'" in hook, hook
    assert "its tools were read from the Python source instead" in hook, hook


# ---------------------------------------------------------------- the manifest itself


def _hooks() -> list[dict]:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_hook_manifest_is_valid():
    result = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", ".pre-commit-hooks.yaml"],
                            cwd=ROOT, capture_output=True, timeout=120)
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    hook, servers = _hooks()
    assert hook["id"] == "mcplint" and hook["language"] == "python"
    assert hook["entry"].split() == ["mcplint", "check", "--skip-non-manifests", "--quiet", "--"]
    assert hook["types"] == ["text"] and hook["require_serial"] is True
    import re

    matched = [name for name in ("a.json", "b.yaml", "c.yml", "d.jsonl", "e.har", "f.ndjson", "g.py", "h.json.bak")
               if re.search(hook["files"], name)]
    assert matched == ["a.json", "b.yaml", "c.yml", "d.jsonl", "e.har", "f.ndjson"]

    # mcplint-servers: runs once on a change to source or config, names no files
    assert servers["id"] == "mcplint-servers" and servers["language"] == "python"
    assert servers["entry"].split() == ["mcplint", "check", "--servers-only", "--quiet"]
    assert servers["pass_filenames"] is False and servers["require_serial"] is True
    names = ["s.py", "src/a.ts", "b.tsx", "c.js", "d.mjs", "e.cjs", "main.go", "lib.rs", "A.java", "B.kt", "c.rb",
             ".mcplint.yaml", "sub/.mcplint.yml", "pyproject.toml", "package.json",
             "README.md", "tools.json", "x.pyc", "my-pyproject.toml", "notes.yaml"]
    matched = [name for name in names if re.search(servers["files"], name)]
    assert matched == names[:15]


# ---------------------------------------------------------------- --skip-non-manifests


@pytest.fixture
def workdir(tmp_path):
    for name, text in {**UNRELATED, "good.json": GOOD_JSON, "bad.json": BAD_JSON}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_named_non_manifests_are_errors_without_the_flag(workdir):
    result = run_mcplint("check", "package.json", "good.json", cwd=workdir)
    assert result.returncode == 2
    assert "package.json: not an MCP tool manifest" in result.stderr.decode()


def test_skip_non_manifests_skips_named_files_that_are_not_manifests(workdir):
    names = [*UNRELATED, "good.json"]
    result = run_mcplint("check", *names, "--skip-non-manifests", "-v", "--format", "json", cwd=workdir)
    assert result.returncode == 0, result.stderr.decode()
    err = result.stderr.decode()
    for name in UNRELATED:
        assert f"mcplint: skipped {name}:" in err
    assert json.loads(result.stdout)["summary"]["files"] == 1
    bad = run_mcplint("check", *names, "bad.json", "--skip-non-manifests", cwd=workdir)
    assert bad.returncode == 1 and "bad.json:" in bad.stdout.decode()


def test_skip_non_manifests_with_nothing_to_lint_passes(workdir):
    # a commit that touches only package.json must not fail the hook
    result = run_mcplint("check", "package.json", "tsconfig.json", "--skip-non-manifests", cwd=workdir)
    assert result.returncode == 0, result.stderr.decode()
    assert run_mcplint("check", "package.json", cwd=workdir).returncode == 2  # a human still hears about it


def test_skip_non_manifests_still_fails_on_a_broken_manifest(workdir):
    (workdir / "broken.json").write_text('{"tools": [{"name": "x",}]}\n', encoding="utf-8")
    result = run_mcplint("check", "broken.json", "package.json", "--skip-non-manifests", cwd=workdir)
    assert result.returncode == 2
    assert "broken.json:1:" in result.stderr.decode()
    # so the Python file of the try-repo tests is a working canary: passed, it would fail the hook
    (workdir / "tools.py").write_text(PYTHON_FILE[1], encoding="utf-8")
    assert run_mcplint("check", "tools.py", "good.json", "--skip-non-manifests", cwd=workdir).returncode == 2


def test_skip_non_manifests_applies_config_exclude_to_named_files(workdir):
    (workdir / "vendor").mkdir()
    shutil.copy(workdir / "bad.json", workdir / "vendor" / "bad.json")
    (workdir / ".mcplint.yaml").write_text("exclude: [vendor/**]\n", encoding="utf-8")
    hook = run_mcplint("check", "good.json", "vendor/bad.json", "--skip-non-manifests", cwd=workdir)
    assert hook.returncode == 0, hook.stdout.decode() + hook.stderr.decode()
    named = run_mcplint("check", "good.json", "vendor/bad.json", cwd=workdir)
    assert named.returncode == 1  # without the flag a named file is always linted
