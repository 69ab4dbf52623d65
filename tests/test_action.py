"""The composite GitHub Action (action.yml): its structure, and its scripts run for real.

A tiny runner stands in for GitHub's: it substitutes the ``${{ ... }}`` expressions the action
uses (inputs, github.action_path, step outputs; any other expression fails the test), gives each
step its own ``$GITHUB_OUTPUT`` file, and runs each ``run:`` script the way GitHub runs
``shell: bash`` (``bash --noprofile --norc -eo pipefail``). The install step really installs
mcplint from a copy of this checkout into a fresh virtualenv (once per module).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from test_precommit import _clean_env, _snapshot
from test_reporters import _assert_valid_sarif

ACTION = ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
BAD = (FIXTURES / "reporters" / "input-bad.json").read_text(encoding="utf-8")
CLEAN = (FIXTURES / "manifests" / "clean-server.json").read_text(encoding="utf-8")
WEATHER = FIXTURES / "repos" / "fastmcp-weather"
# The server starts with the interpreter running the tests, which has the mcp SDK (as a workflow
# would install the server's dependencies before the action); mcplint runs from the action's venv.
WEATHER_CONFIG = f"""\
servers:
  - name: weather
    command: [{sys.executable}, -m, weather]
    source: [weather/]
"""
CANARY_CONFIG = """\
servers:
  - name: canary
    command: [python3, -c, "open('server-started', 'w').close()"]
"""


def _action() -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(ACTION.read_text(encoding="utf-8"))


def _steps() -> dict[str, dict]:
    steps = _action()["runs"]["steps"]
    return {step.get("id") or step["name"]: step for step in steps}


class Runner:
    """Runs the action's steps in a workspace, like a GitHub runner would."""

    def __init__(self, workspace: Path, temp: Path, action_path: Path, inputs: dict[str, str]):
        defaults = {name: str(spec.get("default", "")) for name, spec in _action()["inputs"].items()}
        unknown = set(inputs) - set(defaults)
        assert not unknown, f"not inputs of action.yml: {unknown}"
        self.inputs = {**defaults, **inputs}
        self.workspace, self.temp, self.action_path = workspace, temp, action_path
        self.outputs: dict[str, dict[str, str]] = {}
        self.summary = temp / "step_summary.md"
        self.summary.touch()

    def expand(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: self.value(m.group(1)), str(text))

    def value(self, expression: str) -> str:
        parts = expression.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs[parts[1]]
        if expression == "github.action_path":
            return str(self.action_path)
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        raise AssertionError(f"the test runner does not know the expression {expression!r}")

    def condition(self, step: dict) -> bool:
        """The ``if:`` expressions action.yml uses: always() && a == 'x' && b != ''."""
        expression = EXPRESSION.sub(lambda m: m.group(1), str(step.get("if", "success()")))
        verdict = True
        for term in (t.strip() for t in expression.split("&&")):
            if term in ("always()", "success()"):
                continue
            match = re.fullmatch(r"(\S+) (==|!=) '([^']*)'", term)
            assert match, f"the test runner cannot evaluate {term!r}"
            left, op, right = match.groups()
            verdict &= (self.value(left) == right) == (op == "==")
        return verdict

    def run(self, step_id: str, **extra_env: str) -> subprocess.CompletedProcess:
        step = _steps()[step_id]
        assert step["shell"] == "bash"
        output = self.temp / f"output-{step_id}"
        output.write_text("", encoding="utf-8")
        script = self.temp / f"{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        env = {
            **_clean_env(),
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_ACTION_PATH": str(self.action_path),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(self.summary),
            "RUNNER_TEMP": str(self.temp),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            **{name: self.expand(value) for name, value in (step.get("env") or {}).items()},
            **extra_env,
        }
        assert EXPRESSION.search(step["run"]) is None, "inputs must reach scripts through env:, not ${{ }}"
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                                cwd=self.workspace, env=env, capture_output=True, timeout=900)
        self.outputs[step_id] = dict(
            line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines() if "=" in line
        )
        return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The install step, run once: the step outputs it left (the path of mcplint)."""
    checkout = _snapshot(tmp_path_factory.mktemp("action-checkout"))
    runner = Runner(tmp_path_factory.mktemp("ws"), tmp_path_factory.mktemp("runner-temp"), checkout, {})
    result = runner.run("install")
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert result.stdout.decode().startswith("mcplint ")  # it printed its version
    return runner.outputs["install"]


def _runner(tmp_path, installed, files: dict[str, str], **inputs) -> Runner:
    workspace = tmp_path / "workspace"
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text, encoding="utf-8")
    (tmp_path / "temp").mkdir()
    runner = Runner(workspace, tmp_path / "temp", ROOT, {k.replace("_", "-"): v for k, v in inputs.items()})
    runner.outputs["install"] = installed
    return runner


# ---------------------------------------------------------------- structure


def test_action_is_a_composite_action_with_the_documented_inputs():
    action = _action()
    assert action["runs"]["using"] == "composite"
    assert action["name"] and action["description"]
    inputs = action["inputs"]
    assert {"paths", "config", "fail-on", "sarif-file", "category", "version"} <= set(inputs)
    assert all(spec.get("description") for spec in inputs.values())
    assert inputs["paths"]["default"] == "." and inputs["sarif-file"]["default"] == "mcplint.sarif"
    assert inputs["category"]["default"] == "mcplint"
    assert inputs["servers"]["default"] == "false" and inputs["audit"]["default"] == "false"
    assert set(action["outputs"]) == {"exit-code", "sarif-file"}


def test_action_steps_install_lint_upload_then_fail():
    steps = _action()["runs"]["steps"]
    assert [s.get("id") for s in steps][:2] == ["install", "lint"]
    install, lint, upload, fail = steps
    assert "${{ github.action_path }}" in install["env"].values()  # the action's own copy by default
    assert "--format github" in lint["run"] and "--sarif-output" in lint["run"]
    assert upload["uses"] == "github/codeql-action/upload-sarif@v4"
    assert "always()" in upload["if"]
    assert upload["with"] == {
        "sarif_file": "${{ steps.lint.outputs.sarif-file }}", "category": "${{ inputs.category }}",
    }
    assert "always()" in fail["if"] and 'exit "$MCPLINT_EXIT_CODE"' in fail["run"]
    for step in steps:  # no ${{ }} inside scripts: inputs go through env (no script injection)
        assert "run" not in step or "${{" not in step["run"]


# ---------------------------------------------------------------- run for real


def test_action_lints_annotates_summarises_and_writes_sarif(tmp_path, installed):
    runner = _runner(tmp_path, installed, {"mcp/tools.json": BAD, "mcp/clean.json": CLEAN, "package.json": "{}"})
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()  # the step itself succeeds so the upload runs
    out = lint.stdout.decode()
    assert "::error file=mcp/tools.json,line=" in out and "::group::mcp/tools.json" in out
    assert runner.outputs["lint"] == {"exit-code": "1", "sarif-file": "mcplint.sarif"}

    log = _assert_valid_sarif((runner.workspace / "mcplint.sarif").read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"mcp/tools.json"}  # repo-relative, as upload-sarif needs

    summary = runner.summary.read_text(encoding="utf-8")
    assert summary.startswith("## mcplint\n") and "in 2 manifests" in summary and "| :x: |" in summary

    upload = _steps()["Upload SARIF to code scanning"]
    assert runner.condition(upload)
    assert runner.expand(upload["with"]["sarif_file"]) == "mcplint.sarif"
    assert runner.expand(upload["with"]["category"]) == "mcplint"

    fail = runner.run("Fail with mcplint's exit code")
    assert fail.returncode == 1 and "found problems" in fail.stdout.decode()


def test_action_inputs_paths_config_fail_on_args_and_sarif_file(tmp_path, installed):
    files = {"my tools/a b.json": BAD, "other/tools.json": BAD, "ci/mcplint.yaml": "fail-on: warning\n"}
    runner = _runner(
        tmp_path, installed, files,
        paths="my tools/a b.json\n  other/tools.json  \n", config="ci/mcplint.yaml", fail_on="never",
        sarif_file="reports/mcp.sarif", args="--select MCP204 --protocol-version 2025-06-18", upload_sarif="false",
    )
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    out = lint.stdout.decode()
    assert "::group::my tools/a b.json" in out and "::group::other/tools.json" in out
    assert set(re.findall(r"title=(MCP\d+)", out)) == {"MCP204"}  # --select from args
    assert runner.outputs["lint"] == {"exit-code": "0", "sarif-file": "reports/mcp.sarif"}  # fail-on never
    log = _assert_valid_sarif((runner.workspace / "reports" / "mcp.sarif").read_text(encoding="utf-8"))
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["MCP204"]
    assert not runner.condition(_steps()["Upload SARIF to code scanning"])  # upload-sarif: false
    assert runner.run("Fail with mcplint's exit code").returncode == 0


def test_action_config_fail_on_is_kept_when_the_input_is_empty(tmp_path, installed):
    files = {"m.json": BAD, ".mcplint.yaml": "fail-on: never\n"}
    runner = _runner(tmp_path, installed, files, sarif_file="")
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    assert runner.outputs["lint"] == {"exit-code": "0"}  # and no SARIF when sarif-file is empty
    assert not (runner.workspace / "mcplint.sarif").exists()
    assert not runner.condition(_steps()["Upload SARIF to code scanning"])


def test_action_inputs_cannot_inject_shell_code(tmp_path, installed):
    runner = _runner(tmp_path, installed, {"m.json": CLEAN}, paths='m.json $(touch pwned) "; touch pwned2; "',
                     args="`touch pwned3`")
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    assert not any((runner.workspace / name).exists() for name in ("pwned", "pwned2", "pwned3"))
    assert runner.outputs["lint"]["exit-code"] == "2"  # the words are just (missing) paths
    assert "no such file" in lint.stderr.decode()
    fail = runner.run("Fail with mcplint's exit code")
    assert fail.returncode == 2 and "could not lint" in fail.stdout.decode()


def test_action_install_refuses_an_old_python(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    for name in ("python3", "python"):
        (fake / name).write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")  # "version < 3.11"
        os.chmod(fake / name, 0o755)
    (tmp_path / "ws").mkdir()
    runner = Runner(tmp_path / "ws", tmp_path, ROOT, {})
    result = runner.run("install", PATH=f"{fake}:{os.environ['PATH']}")
    assert result.returncode == 2
    assert "::error title=mcplint::mcplint needs Python 3.11 or newer" in result.stdout.decode()
    assert runner.outputs["install"] == {}


FAKE_PYTHON = """#!/bin/sh
# Stands in for python3: "-c" checks pass, "-m venv DIR" makes a venv whose python logs pip's arguments.
case "$1" in
  -c) exit 0 ;;
  -m) mkdir -p "$3/bin"
      printf '#!/bin/sh\\necho "$*" >> "%s/pip-args"\\n' "$3" > "$3/bin/python"
      printf '#!/bin/sh\\necho "mcplint 9.9.9"\\n' > "$3/bin/mcplint"
      chmod +x "$3/bin/python" "$3/bin/mcplint" ;;
esac
"""


@pytest.mark.parametrize(("version", "spec"), [
    ("", "{action_path}"),  # the action's own checkout: `uses: mcplint/mcplint@vX` pins mcplint
    ("0.2.0", "mcplint-compliance==0.2.0"),
    ("mcplint-compliance>=0.2,<0.3", "mcplint-compliance>=0.2,<0.3"),
])
def test_action_version_input_chooses_what_pip_installs(tmp_path, version, spec):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text(FAKE_PYTHON, encoding="utf-8")
    os.chmod(fake / "python3", 0o755)
    (tmp_path / "ws").mkdir()
    runner = Runner(tmp_path / "ws", tmp_path, ROOT, {"version": version})
    result = runner.run("install", PATH=f"{fake}:{os.environ['PATH']}")
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    venv = tmp_path / "mcplint-venv"
    args = (venv / "pip-args").read_text(encoding="utf-8").split()
    assert args[:2] == ["-m", "pip"] and args[-1] == spec.format(action_path=ROOT)
    assert runner.outputs["install"] == {"mcplint": f"{venv}/bin/mcplint"}


# ---------------------------------------------------------------- servers and audit


def _weather(**config) -> dict[str, str]:
    files = {str(path.relative_to(WEATHER)): path.read_text(encoding="utf-8") for path in sorted(WEATHER.rglob("*"))
             if path.is_file() and "__pycache__" not in path.parts}
    return {**files, ".mcplint.yaml": WEATHER_CONFIG + "".join(f"{k}: {v}\n" for k, v in config.items())}


def _results(runner: Runner) -> list[dict]:
    log = _assert_valid_sarif((runner.workspace / "mcplint.sarif").read_text(encoding="utf-8"))
    return log["runs"][0]["results"]


def _where(result: dict) -> tuple:
    location = result["locations"][0]["physicalLocation"]
    region = location.get("region", {})
    return result["ruleId"], location["artifactLocation"]["uri"], region.get("startLine"), region.get("startColumn")


def test_action_servers_input_lints_the_configured_server_onto_its_source_lines(tmp_path, installed):
    runner = _runner(tmp_path, installed, _weather(), servers="true")
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    assert runner.outputs["lint"] == {"exit-code": "0", "sarif-file": "mcplint.sarif"}  # warnings only
    assert "could not be started" not in lint.stderr.decode()  # started for real, not read statically

    located = {_where(result) for result in _results(runner)}
    for expected in (
        ("MCP221", "weather/server.py", 24, 71),  # on the phrase
        ("MCP202", "weather/server.py", 33, 16),
        ("MCP311", "weather/server.py", 34, 16),
        ("MCP211", "weather/server.py", 41, 5),
        ("MCP411", "weather/server.py", 46, 5),
        ("MCP220", "weather/server.py", 59, 39),  # on the emoji
    ):
        assert expected in located, located
    assert {uri for _, uri, _, _ in located} == {"weather/server.py"}  # each on a line code scanning shows

    out = lint.stdout.decode()
    assert "::warning file=weather/server.py,line=33,endLine=33,col=16,endColumn=27,title=MCP202 tool-name-style::" \
        in out, out
    assert "::notice file=weather/server.py,line=46," in out
    summary = runner.summary.read_text(encoding="utf-8")
    assert "1 server (5 tools)" in summary, summary


def test_action_audit_input_probes_the_server_and_anchors_traffic_findings_to_the_config(tmp_path, installed):
    runner = _runner(tmp_path, installed, _weather(), audit="true", fail_on="warning")
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    assert runner.outputs["lint"]["exit-code"] == "1"
    located = {_where(result) for result in _results(runner)}
    # An unknown tool answered with an isError result: seen in the audit's traffic, so it is
    # anchored to the config entry that declares the server (line 2, '- name: weather').
    assert ("MCP705", ".mcplint.yaml", 2, None) in located, located
    assert ("MCP202", "weather/server.py", 33, 16) in located  # the listing is still linted
    out = lint.stdout.decode()
    assert "::warning file=.mcplint.yaml,line=2,title=MCP705 unknown-tool-result::audit:weather#message-" in out, out
    fail = runner.run("Fail with mcplint's exit code")
    assert fail.returncode == 1


def test_action_starts_no_server_unless_asked(tmp_path, installed):
    # paths "" is `check` without paths, which alone would start the servers: servers: false says not to
    runner = _runner(tmp_path, installed, {"m.json": CLEAN, ".mcplint.yaml": CANARY_CONFIG}, paths="")
    lint = runner.run("lint")
    assert lint.returncode == 0, lint.stderr.decode()
    assert runner.outputs["lint"]["exit-code"] == "0", lint.stderr.decode()
    assert not (runner.workspace / "server-started").exists()


@pytest.mark.parametrize("inputs", [{"servers": "yes"}, {"audit": "True"}, {"servers": "true\n::warning::x"}])
def test_action_servers_and_audit_inputs_must_be_true_or_false(tmp_path, inputs):
    runner = _runner(tmp_path, {"mcplint": "/nonexistent/mcplint"}, {"m.json": CLEAN}, **inputs)
    lint = runner.run("lint")
    assert lint.returncode == 2
    (name,) = inputs
    assert lint.stdout.decode() == f"::error title=mcplint::the {name} input must be true or false\n"
    assert runner.outputs["lint"] == {}  # so neither the upload nor the exit-code step runs
    assert not runner.condition(_steps()["Upload SARIF to code scanning"])
    assert not runner.condition(_steps()["Fail with mcplint's exit code"])
