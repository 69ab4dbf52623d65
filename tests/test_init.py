"""`mcplint init` in a temporary repo with real files: the written .mcplint.yaml loads
cleanly, `mcplint check` runs with it, and every commented-out option is valid."""

from __future__ import annotations

import json
import re
import shutil

from conftest import FIXTURES, run_mcplint
from mcplint import config, registry
from mcplint.engine import Plan

HANDSHAKE = '{"tools": [{"name": "get_time", "description": "Get the current time.", "inputSchema": {"type": "object"}}]}'
STATELESS = ('{"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [{"name": "get_date", '
             '"description": "Get the current date.", "inputSchema": {"type": "object"}}]}')


def init(folder, *args):
    proc = run_mcplint("init", *args, cwd=folder)
    return proc, proc.stdout.decode(), proc.stderr.decode()


def test_init_writes_a_config_that_loads_and_check_uses(tmp_path):
    (tmp_path / "servers" / "crm").mkdir(parents=True)
    shutil.copy(FIXTURES / "manifests" / "crm-server.yaml", tmp_path / "servers" / "crm" / "tools.yaml")
    (tmp_path / "servers" / "time.json").write_text(HANDSHAKE)
    (tmp_path / "package.json").write_text('{"name": "not-a-manifest"}')
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "tools.json").write_text(HANDSHAKE)  # never walked
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "broken.json").write_text('{"tools": [')

    proc, out, err = init(tmp_path)
    assert proc.returncode == 0, err
    assert out == ("mcplint: wrote .mcplint.yaml (2 manifest(s) found, protocol-version 2025-11-25); "
                   "review it, then run `mcplint check`\n")
    text = (tmp_path / ".mcplint.yaml").read_text("utf-8")
    assert "#   servers/crm/tools.yaml  protocol 2025-11-25" in text
    assert "#   servers/time.json       protocol 2025-11-25" in text
    assert "node_modules" not in text and "package.json" not in text
    assert "#   examples/broken.json: invalid JSON" in text

    cfg = config.load(tmp_path / ".mcplint.yaml")
    Plan.build(cfg)  # rules, severities and options all resolve
    assert cfg.include == ["servers/**"] and cfg.exclude == []
    assert cfg.protocol_version == "2025-11-25" and cfg.fail_on == "error" and cfg.select == ["ALL"]

    proc = run_mcplint("check", ".", "-f", "json", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr  # the broken example is outside include
    report = json.loads(proc.stdout)
    assert report["summary"]["files"] == 2 and report["summary"]["protocol_versions"] == ["2025-11-25"]


def test_every_option_is_listed_and_the_commented_examples_are_valid(tmp_path):
    (tmp_path / "tools.json").write_text(HANDSHAKE)
    assert init(tmp_path)[0].returncode == 0
    text = (tmp_path / ".mcplint.yaml").read_text("utf-8")
    for rule in registry.all_rules():
        for name, spec in rule.Options.fields().items():
            assert re.search(rf"^#     {name.replace('_', '-')}: .*# {re.escape(spec.description)}$", text, re.M), name
    # Uncommenting every commented-out setting (rules and options sections) gives a valid config.
    start, end = text.index("select: [ALL]"), text.index("# Tool pinning")
    uncommented = text[:start] + re.sub(r"^# (?=[a-z-]+:|  )", "", text[start:end], flags=re.M) + text[end:]
    (tmp_path / ".mcplint.yaml").write_text(uncommented)
    cfg = config.load(tmp_path / ".mcplint.yaml")
    Plan.build(cfg)
    assert cfg.ignore == ["format-hint-unconstrained"] and cfg.severity["MCP331"] == "off"
    assert set(cfg.options) == {r.name for r in registry.all_rules() if r.Options.fields()}
    assert "legacy/*.json" in cfg.per_file_ignores
    assert run_mcplint("check", ".", cwd=tmp_path).returncode in (0, 1)


def test_manifests_that_disagree_leave_the_version_to_inference(tmp_path):
    (tmp_path / "old.json").write_text(HANDSHAKE)
    (tmp_path / "new.json").write_text(STATELESS)
    proc, out, _ = init(tmp_path)
    assert proc.returncode == 0 and "protocol-version" not in out
    text = (tmp_path / ".mcplint.yaml").read_text("utf-8")
    assert "(2025-11-25: 1 file(s), 2026-07-28: 1 file(s))" in text
    cfg = config.load(tmp_path / ".mcplint.yaml")
    assert cfg.protocol_version is None and cfg.include == []  # manifests at the root: walk everything
    assert run_mcplint("check", ".", cwd=tmp_path).returncode == 0


def test_an_empty_folder_still_gets_a_valid_config(tmp_path):
    proc, out, _ = init(tmp_path)
    assert proc.returncode == 0 and "0 manifest(s) found" in out
    assert "No MCP manifests were found here yet" in (tmp_path / ".mcplint.yaml").read_text("utf-8")
    Plan.build(config.load(tmp_path / ".mcplint.yaml"))


def test_init_never_overwrites_without_force(tmp_path):
    (tmp_path / "tools.json").write_text(HANDSHAKE)
    (tmp_path / ".mcplint.yaml").write_text("fail-on: never\n")
    proc, _, err = init(tmp_path)
    assert proc.returncode == 2 and err.count("\n") == 1
    assert ".mcplint.yaml already configures mcplint here (use --force to overwrite)" in err
    assert (tmp_path / ".mcplint.yaml").read_text() == "fail-on: never\n"
    assert init(tmp_path, "--force")[0].returncode == 0
    assert config.load(tmp_path / ".mcplint.yaml").fail_on == "error"


def test_init_never_writes_through_a_symlink(tmp_path):
    """A cloned repository's `.mcplint.yaml -> ~/.ssh/authorized_keys` (dangling, so no config is
    found) must not make init create or overwrite a file outside the folder."""
    repo, outside = tmp_path / "repo", tmp_path / "home" / "authorized_keys"
    repo.mkdir()
    outside.parent.mkdir()
    (repo / ".mcplint.yaml").symlink_to(outside)
    proc, _, err = init(repo)
    assert proc.returncode == 2 and ".mcplint.yaml is a symbolic link; init writes only a regular file" in err
    assert not outside.exists()
    outside.write_text("ssh-ed25519 AAAA mine\n")
    assert init(repo, "--force")[0].returncode == 0  # replaces the link, not what it points to
    assert outside.read_text() == "ssh-ed25519 AAAA mine\n"
    assert not (repo / ".mcplint.yaml").is_symlink() and config.load(repo / ".mcplint.yaml").fail_on == "error"


def test_names_in_the_tree_cannot_write_lines_of_the_config(tmp_path):
    """A folder named "x<LF>    command: [...]<LF>  - name: dummy<LF>#" ended init's comment about
    the server it holds, and the next `mcplint check` ran the command it wrote."""
    name = 'x\n    command: [touch, PWNED]\n  - name: dummy\nfail-on: never\n#\u2028'
    server = tmp_path / name
    server.mkdir()
    (server / "package.json").write_text('{"dependencies": {"@modelcontextprotocol/sdk": "1"}, "main": "index.js"}')
    (server / "index.js").write_text("")
    (server / "tools.json").write_text(HANDSHAKE)
    proc, _, err = init(tmp_path)
    assert proc.returncode == 0, err
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    assert "\u2028" not in text and "PWNED]\n" not in text
    loaded = config.load(tmp_path / ".mcplint.yaml")
    assert loaded.fail_on == "error" and len(loaded.servers) == 1
    assert loaded.servers[0].command[0] == "node"


def test_init_respects_a_config_in_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert init(tmp_path)[0].returncode == 0  # no [tool.mcplint]: not a config
    (tmp_path / ".mcplint.yaml").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.mcplint]\nfail-on = "warning"\n')
    proc, _, err = init(tmp_path)
    assert proc.returncode == 2
    assert "pyproject.toml already configures mcplint here (use --force to overwrite; --force writes .mcplint.yaml" in err
    assert not (tmp_path / ".mcplint.yaml").exists()


def test_server_detection_takes_linear_time_on_hostile_imports(tmp_path):
    """An unclosed "from mcp.server import (" on each of 40,000 lines (1 MB) took minutes: the
    pattern that read the import scanned to the end of the file from every one."""
    import time

    from mcplint.servers.detect import _makes_python_server

    started = time.process_time()
    assert not _makes_python_server("from mcp.server import (\n" * 40_000)
    assert not _makes_python_server("from mcp.server import " * 40_000)
    assert time.process_time() - started < 5  # about 0.2 s; minutes before
    assert _makes_python_server("from mcp.server.lowlevel import (\n    NotificationOptions,\n    Server,\n)\n")


def test_a_package_json_nested_too_deeply_is_passed_over(tmp_path):
    (tmp_path / "package.json").write_text("[" * 100_000)
    proc, out, err = init(tmp_path)
    assert proc.returncode == 0 and "internal error" not in err, err
