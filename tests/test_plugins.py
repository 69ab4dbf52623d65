"""Third-party rule packs, found through the `mcplint.rules` entry-point group.

The pack is a real distribution on PYTHONPATH (a package plus a .dist-info folder with
entry_points.txt), discovered by importlib.metadata exactly as an installed one is."""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import run_mcplint

RULE = '''
from mcplint.findings import Severity
from mcplint.rule import ToolRule, Violation


class ToolNameTooGeneric(ToolRule):
    """A tool is called something generic like 'run' or 'do'.

    ## Why
    Generic names collide across servers.

    ## Bad
    ```json
    {"tools": [{"name": "run", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "run_report", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "ACME001"
    name = "tool-name-too-generic"
    category = "naming"
    severity = Severity.ERROR

    def check_tool(self, ptr, tool, ctx):
        if tool.get("name") in ("run", "do"):
            yield Violation(ptr / "name", "Tool name is too generic")
'''


def make_pack(root, module_body: str, package: str = "mcplint_acme"):
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (root / package / "generic_names.py").write_text(textwrap.dedent(module_body))
    dist = root / "mcplint_acme-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mcplint-acme\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[mcplint.rules]\nacme = {package}\n")
    return {"PYTHONPATH": str(root)}


@pytest.fixture
def manifest(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text('{"tools": [{"name": "run", "description": "Run the report.", "inputSchema": {"type": "object"}}]}')
    return path


def test_pack_rules_are_listed_and_run(tmp_path, manifest):
    env = make_pack(tmp_path / "site", RULE)
    rules = json.loads(run_mcplint("rules", "--format", "json", env=env).stdout)
    assert {"id": "ACME001", "name": "tool-name-too-generic", "checklist": [], "category": "naming",
            "severity": "error", "summary": "A tool is called something generic like 'run' or 'do'."} in rules
    assert any(r["id"].startswith("MCP") for r in rules)
    proc = run_mcplint("check", str(manifest), "-f", "json", "--select", "ACME", env=env)
    assert proc.returncode == 1
    assert [(f["rule"], f["pointer"]) for f in json.loads(proc.stdout)["findings"]] == [("ACME001", "/tools/0/name")]
    assert run_mcplint("explain", "ACME001", env=env).stdout.startswith(b"# ACME001 tool-name-too-generic")


def test_autoload_can_be_switched_off(tmp_path):
    env = make_pack(tmp_path / "site", RULE) | {"MCPLINT_DISABLE_PLUGIN_AUTOLOAD": "1"}
    rules = json.loads(run_mcplint("rules", "--format", "json", env=env).stdout)
    assert not any(r["id"] == "ACME001" for r in rules)


def test_a_broken_pack_is_a_one_line_error(tmp_path, manifest):
    env = make_pack(tmp_path / "site", "import no_such_module_anywhere\n")
    proc = run_mcplint("check", str(manifest), env=env)
    stderr = proc.stderr.decode()
    assert proc.returncode == 2 and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    assert "rule pack 'mcplint_acme' failed to load" in stderr


def test_a_pack_reusing_a_builtin_code_is_rejected(tmp_path, manifest):
    env = make_pack(tmp_path / "site", RULE.replace('"ACME001"', '"MCP204"'))
    proc = run_mcplint("rules", env=env)
    assert proc.returncode == 2 and b"rule 'MCP204' is already defined by mcplint_rules.duplicate_tool_name" in proc.stderr
