"""Repository mode: `mcplint check` with `servers:` in the config starts the example servers in
fixtures/repos/ for real (the Python SDK's MCPServer and low-level Server, the TypeScript SDK from
npm under node), lints what they list and reports each planted problem on the source line that
defines it, in every format."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_mcplint
from repos_support import REPOS, node_skip_reason
from test_reporters import _assert_valid_sarif

WEATHER = {  # rule, file, line, column, pointer: each planted problem of fastmcp-weather
    ("MCP221", "weather/server.py", 24, 71, "/tools/0/inputSchema/properties/days/description"),  # on the phrase
    ("MCP202", "weather/server.py", 33, 16, "/tools/1/name"),
    ("MCP311", "weather/server.py", 34, 16, "/tools/1/inputSchema/properties/region"),
    ("MCP311", "weather/server.py", 34, 29, "/tools/1/inputSchema/properties/severity"),
    ("MCP211", "weather/server.py", 41, 5, "/tools/2/description"),
    ("MCP411", "weather/server.py", 46, 5, "/tools/3"),
    ("MCP311", "weather/server.py", 53, 25, "/tools/4/inputSchema/properties/value"),
    ("MCP311", "weather/server.py", 53, 39, "/tools/4/inputSchema/properties/unit"),
    ("MCP220", "weather/server.py", 59, 39, "/prompts/0/description"),  # on the emoji
}
NOTES = {
    ("MCP202", "server.py", 25, 14, "/tools/1/name"),
    ("MCP211", "server.py", 32, 21, "/tools/2/description"),
    ("MCP221", "server.py", 32, 36, "/tools/2/description"),
    ("MCP311", "server.py", 37, 17, "/tools/2/inputSchema/properties/pinned"),
    ("MCP410", "server.py", 46, 58, "/tools/3/annotations/readOnlyHint"),
}
TODO = {
    ("MCP211", "server.mjs", 17, 18, "/tools/0/description"),
    ("MCP202", "server.mjs", 28, 3, "/tools/1/name"),
    ("MCP221", "server.mjs", 32, 42, "/tools/1/inputSchema/properties/title/description"),
    ("MCP311", "server.mjs", 33, 7, "/tools/1/inputSchema/properties/due"),
    ("MCP220", "server.mjs", 45, 3, "/tools/2/description"),
    ("MCP411", "server.mjs", 57, 3, "/tools/3"),
    ("MCP202", "lowlevel.mjs", 17, 11, "/tools/1/name"),
    ("MCP311", "lowlevel.mjs", 23, 9, "/tools/1/inputSchema/properties/to"),
}


def _repo(tmp_path: Path, name: str, config: str) -> Path:
    repo = tmp_path / name
    shutil.copytree(REPOS / name, repo, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
    (repo / ".mcplint.yaml").write_text(config, encoding="utf-8")
    (repo / ".git").mkdir(exist_ok=True)  # a checkout: its config is found from any folder in it
    return repo


def _weather(tmp_path: Path, extra: str = "") -> Path:
    return _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 f"    command: [{json.dumps(sys.executable)}, -m, weather]\n    source: [weather/]\n{extra}")


def _located(proc) -> set:
    report = json.loads(proc.stdout)
    return {(f["rule"], f["path"], f["line"], f["column"], f["pointer"]) for f in report["findings"]}


def test_python_sdk_server_findings_are_on_its_source_lines(tmp_path):
    repo = _weather(tmp_path)
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert _located(proc) == WEATHER
    summary = json.loads(proc.stdout)["summary"]
    assert summary["servers"] == 1 and summary["tools"] == 5


def test_low_level_python_server_findings_are_on_its_types_tool_literals(tmp_path):
    repo = _repo(tmp_path, "lowlevel-notes",
                 f"servers:\n  - name: notes\n    command: [{json.dumps(sys.executable)}, server.py]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert _located(proc) == NOTES


def test_typescript_sdk_servers_findings_are_on_their_source_lines(tmp_path):
    reason = node_skip_reason(REPOS / "ts-todo")
    if reason:
        pytest.skip(reason)
    repo = _repo(tmp_path, "ts-todo", "servers:\n  - name: todo\n    command: [node, server.mjs]\n"
                 "  - name: tags\n    command: [node, lowlevel.mjs]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert _located(proc) == TODO


def test_sarif_and_github_annotations_carry_the_source_regions(tmp_path):
    repo = _weather(tmp_path)
    sarif = run_mcplint("check", "--format", "sarif", cwd=repo)
    log = _assert_valid_sarif(sarif.stdout.decode())
    regions = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
                r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in log["runs"][0]["results"]}
    assert regions == {(code, path, line, column) for code, path, line, column, _ in WEATHER}
    github = run_mcplint("check", "--format", "github", cwd=repo).stdout.decode()
    assert "::warning file=weather/server.py,line=33,endLine=33,col=16,endColumn=27,title=MCP202 tool-name-style::" in github


def test_rich_report_shows_the_source_line(tmp_path):
    repo = _weather(tmp_path)
    out = run_mcplint("check", cwd=repo).stdout.decode()
    assert "weather/server.py:33:16: warning[MCP202 tool-name-style]" in out
    assert '33 | @mcp.tool(name="getAlerts"' in out
    assert "in 1 server (5 tools)" in out


def test_audit_true_reports_traffic_at_named_messages_anchored_to_the_config(tmp_path):
    repo = _weather(tmp_path, "    audit: true\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    findings = json.loads(proc.stdout)["findings"]
    traffic = [f for f in findings if f["path"].startswith("audit:")]
    assert traffic and all(f["path"].startswith("audit:weather#message-") and f["line"] is None for f in traffic)
    assert {(f["rule"], f["path"], f["line"], f["column"], f["pointer"]) for f in findings if f not in traffic} == WEATHER
    sarif = _assert_valid_sarif(run_mcplint("check", "--format", "sarif", cwd=repo).stdout.decode())
    anchored = [r for r in sarif["runs"][0]["results"]
                if r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].startswith("audit:weather")]
    assert anchored and all(r["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": ".mcplint.yaml"}, "region": {"startLine": 2}} for r in anchored)


def test_a_finding_outside_the_source_folders_stays_on_the_listing_and_says_why(tmp_path):
    repo = _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 f"    command: [{json.dumps(sys.executable)}, -m, weather]\n    source: [docs/]\n")
    (repo / "docs").mkdir()
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    findings = json.loads(proc.stdout)["findings"]
    assert len(findings) == len(WEATHER)
    name = next(f for f in findings if f["rule"] == "MCP202")
    assert name["path"] == "server:weather" and name["line"] is None and name["pointer"] == "/tools/1/name"
    assert "[server weather, tool getAlerts, /name: not placed in the source: " in name["message"]
    assert "could not be placed in the source" in proc.stderr.decode()
    rich = run_mcplint("check", cwd=repo).stdout.decode()
    assert "server:weather: warning[MCP202 tool-name-style]" in rich


def test_a_python_server_that_exits_at_start_is_read_from_its_source_after_one_start(tmp_path):
    """The pre-commit case: the server's dependencies are missing, so it exits at once with
    ModuleNotFoundError. It is not started again (a start failure, not a probe that killed it),
    and its tools are read from the source."""
    starts = tmp_path / "starts.log"
    command = [sys.executable, "-c", f"open({str(starts)!r}, 'a').write('x'); import mcp_not_installed_here"]
    repo = _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 f"    command: {json.dumps(command)}\n    source: [weather/]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert "No module named 'mcp_not_installed_here'" in err and "read from the Python source instead" in err
    assert "probe" not in err  # a server that never said a word failed to start: no probe is blamed
    assert starts.read_text() == "x"
    assert ("MCP202", "weather/server.py", 33, 16, "/tools/1/name") in _located(proc)


def test_a_server_that_lists_no_tools_its_source_defines_is_told_so(tmp_path):
    """mcp-server-tree-sitter's `python -m package` starts a server that never registers its 26
    tools: "No problems found in 1 server (0 tools)" read as a pass (repository mode, round 2)."""
    server = ROOT / "tests" / "gate_servers"
    script = f"import sys; sys.path.insert(0, {str(server)!r}); from stdio_loop import serve; serve('w', [], lambda p: None)"
    repo = _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 f"    command: {json.dumps([sys.executable, '-c', script])}\n    source: [weather/]\n")
    proc = run_mcplint("check", "--format", "json", cwd=repo)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert "server weather listed no tools, though its source defines 5 (convert_temperature, current_conditions, " in err, err
    assert "check its command in the config" in err


def test_a_python_server_that_cannot_start_is_read_from_its_source(tmp_path):
    repo = _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 "    command: [python3-not-installed-here, -m, weather]\n    source: [weather/]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert "could not be started" in err and "read from the Python source instead" in err
    located = _located(proc)
    # names, descriptions, parameter names and annotations are judged statically; the same lines
    assert {("MCP202", "weather/server.py", 33, 16, "/tools/1/name"),
            ("MCP211", "weather/server.py", 41, 5, "/tools/2/description"),
            ("MCP220", "weather/server.py", 59, 39, "/prompts/0/description")} <= located
    assert located <= WEATHER


def test_a_server_that_cannot_start_and_is_not_python_is_an_error(tmp_path):
    repo = _repo(tmp_path, "lowlevel-notes", "servers:\n  - name: gone\n    command: [no-such-program-xyz]\n")
    proc = run_mcplint("check", cwd=repo)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert "server gone:" in err and "Traceback" not in err


@pytest.mark.parametrize("config, message", [
    ("servers: 3\n", "servers: expected a list"),
    ("servers:\n  - name: a\n", "give either command (stdio) or url"),
    ("servers:\n  - name: a\n    command: [x]\n    url: http://127.0.0.1:1/mcp\n", "not both"),
    ("servers:\n  - name: a b\n    command: [x]\n", "servers.0.name"),
    ("servers:\n  - name: a\n    command: [x]\n  - name: a\n    command: [y]\n", "used by another server"),
    ("servers:\n  - name: a\n    command: [x]\n    audit: maybe\n", "servers.0.audit"),
    ("servers:\n  - name: a\n    command: [x]\n    colour: red\n", "servers.0.colour: unknown setting"),
    ("servers:\n  - name: a\n    url: ftp://example.invalid/\n", "servers.0.url"),
])
def test_bad_server_entries_are_one_line_errors(tmp_path, config, message):
    (tmp_path / ".mcplint.yaml").write_text(config, encoding="utf-8")
    proc = run_mcplint("check", cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1


def test_paths_given_start_no_server_unless_asked(tmp_path):
    marker = tmp_path / "started"
    code = json.dumps(f"open({str(marker)!r}, 'w')")
    config = f"servers:\n  - name: touch\n    command: [{json.dumps(sys.executable)}, -c, {code}]\n"
    (tmp_path / ".mcplint.yaml").write_text(config, encoding="utf-8")
    (tmp_path / "tools.json").write_text('{"tools": []}', encoding="utf-8")
    proc = run_mcplint("check", "tools.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert not marker.exists()
    run_mcplint("check", "--no-servers", cwd=tmp_path)
    assert not marker.exists()
    run_mcplint("check", "tools.json", "--servers", cwd=tmp_path)
    assert marker.exists()


def test_asking_for_servers_with_none_configured_says_how(tmp_path):
    (tmp_path / "tools.json").write_text('{"tools": []}', encoding="utf-8")
    proc = run_mcplint("check", "--servers-only", cwd=tmp_path)
    assert proc.returncode == 2 and "no servers configured" in proc.stderr.decode()


def test_env_and_cwd_reach_the_server_and_env_references_expand(tmp_path):
    repo = _repo(tmp_path, "fastmcp-weather", "servers:\n  - name: weather\n"
                 f"    command: [{json.dumps(sys.executable)}, -m, weather]\n    cwd: .\n"
                 "    env: {PYTHONPATH: '${MCPLINT_TEST_PATH}'}\n    source: [weather/]\n")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo / "weather",
                       env={"MCPLINT_TEST_PATH": str(repo)})  # cwd is the config's folder, not ours
    assert proc.returncode == 1, proc.stderr.decode()
    assert _located(proc) == WEATHER


def test_init_writes_a_server_entry_that_check_then_runs(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(REPOS / "fastmcp-weather", repo, ignore=shutil.ignore_patterns("__pycache__"))
    proc = run_mcplint("init", cwd=repo)
    assert proc.returncode == 0, proc.stderr.decode()
    text = (repo / ".mcplint.yaml").read_text(encoding="utf-8")
    assert "servers:\n  - name: weather" in text and 'command: ["python", "-m", "weather"]' in text
    # the written command names `python`; point it at the interpreter that has the SDK
    (repo / ".mcplint.yaml").write_text(text.replace('["python", ', f"[{json.dumps(sys.executable)}, "),
                                        encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert ("MCP202", "weather/server.py", 33, 16, "/tools/1/name") in _located(proc)


def test_init_detects_a_typescript_sdk_server(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(REPOS / "ts-todo", repo, ignore=shutil.ignore_patterns("node_modules"))
    assert run_mcplint("init", cwd=repo).returncode == 0
    text = (repo / ".mcplint.yaml").read_text(encoding="utf-8")
    assert 'command: ["node", "server.mjs"]' in text


def test_a_tools_only_stateless_server_gets_no_envelope_findings_and_enum_names_are_followed(tmp_path):
    """A listing that holds only tools has the shape of a tools/list result, but its envelope
    (resultType, ttlMs, cacheScope) is mcplint's own rebuild: MCP109 must not judge it. And a
    tool named through an Enum member (`name=Tools.STATUS.value`, as mcp-server-git does) is
    found at its function, not at the Enum's string."""
    repo = tmp_path / "enum-server"
    repo.mkdir()
    (repo / "server.py").write_text('''from enum import Enum

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("enum-tools")


class Tools(str, Enum):
    STATUS = "git_status"


@mcp.tool(name=Tools.STATUS.value, description="Show the working tree status of a repository")
def status(repo_path: str) -> str:
    return repo_path


if __name__ == "__main__":
    mcp.run()
''', encoding="utf-8")
    (repo / ".mcplint.yaml").write_text(
        f"servers:\n  - name: enum\n    command: [{json.dumps(sys.executable)}, server.py]\n", encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    located = _located(proc)
    assert not any(code == "MCP109" for code, *_ in located), located
    assert ("MCP311", "server.py", 13, 12, "/tools/0/inputSchema/properties/repo_path") in located, located


SRC_LAYOUT_SERVER = '''from mcp.server import (
    Server,
)
from mcp.server.stdio import stdio_server
import mcp.types as types

LOCAL_TZ = "UTC"


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[
        types.Tool(
            name="get_current_time",
            description="Get the current time in a timezone.",
            input_schema={
                "type": "object",
                "properties": {
                    "timezone": {
                        "type": "string",
                        "description": f"IANA timezone name. Use '{LOCAL_TZ}' if the user gave none.",
                    },
                    "format": {"type": "string"},
                },
                "required": ["timezone"],
            },
        ),
    ])


async def serve() -> None:
    server = Server("clock", on_list_tools=list_tools)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
'''


def _src_layout_repo(tmp_path: Path) -> Path:
    """The layout of the reference servers time, fetch and git: a package under src/ whose
    server.py imports the low-level Server from mcp.server, started by the package's __main__."""
    package = tmp_path / "clock" / "src" / "clock_server"
    package.mkdir(parents=True)
    (package / "server.py").write_text(SRC_LAYOUT_SERVER, encoding="utf-8")
    (package / "__init__.py").write_text("import anyio\n\nfrom .server import serve\n\n\ndef main():\n"
                                         "    anyio.run(serve)\n", encoding="utf-8")
    (package / "__main__.py").write_text("from clock_server import main\n\nmain()\n", encoding="utf-8")
    return tmp_path / "clock"


def test_init_runs_a_src_layout_package_from_its_folder_and_check_starts_it(tmp_path):
    repo = _src_layout_repo(tmp_path)
    assert run_mcplint("init", cwd=repo).returncode == 0
    text = (repo / ".mcplint.yaml").read_text(encoding="utf-8")
    assert 'command: ["python", "-m", "clock_server"]\n    cwd: "src"\n    source: ["src/"]' in text
    (repo / ".mcplint.yaml").write_text(text.replace('["python", ', f"[{json.dumps(sys.executable)}, "),
                                        encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert proc.returncode == 1, proc.stderr.decode()
    assert "could not be started" not in proc.stderr.decode()
    # the undescribed parameter, on its line; the f-string description is a description
    assert _located(proc) == {("MCP311", "src/clock_server/server.py", 22, 21,
                               "/tools/0/inputSchema/properties/format")}


def test_init_starts_the_official_template_through_its_console_script(tmp_path):
    """create-mcp-server's layout (mcp-obsidian's too): server.py has the server and an async
    main() that nothing at its top level calls, the package's main() runs it, and pyproject.toml's
    console script names that. `python -m package.server` would import it and exit."""
    repo = _src_layout_repo(tmp_path)
    (repo / "src" / "clock_server" / "__main__.py").unlink()
    server = repo / "src" / "clock_server" / "server.py"
    server.write_text(server.read_text(encoding="utf-8") + "\nAPI_KEY = os.environ.get('CLOCK_API_KEY')\n"
                      "ZONE = os.getenv('CLOCK_ZONE', 'UTC')\n", encoding="utf-8")
    server.write_text("import os\n" + server.read_text(encoding="utf-8"), encoding="utf-8")
    (repo / "pyproject.toml").write_text('[project]\nname = "clock"\n\n[project.scripts]\n'
                                         'clock-admin = "clock_server.admin:run"\nclock = "clock_server:main"\n',
                                         encoding="utf-8")
    assert run_mcplint("init", cwd=repo).returncode == 0
    text = (repo / ".mcplint.yaml").read_text(encoding="utf-8")
    assert "started by the console script clock (clock_server:main)" in text
    assert ('command: ["python", "-c", "import sys; from clock_server import main; sys.exit(main())"]\n'
            '    cwd: "src"\n    source: ["src/"]\n'
            "    # its source reads CLOCK_API_KEY, CLOCK_ZONE: set those it needs under env:\n"
            "    # env: {CLOCK_API_KEY: dummy}\n") in text
    (repo / ".mcplint.yaml").write_text(text.replace('["python", ', f"[{json.dumps(sys.executable)}, "),
                                        encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert "could not be started" not in proc.stderr.decode() and proc.returncode == 1, proc.stderr.decode()
    assert {f[0] for f in _located(proc)} == {"MCP311"}
    # without the console script (or with a pyproject.toml tomllib cannot read: nested too deeply), the
    # comment says the guessed command starts nothing
    (repo / "pyproject.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert run_mcplint("init", "--force", cwd=repo).returncode == 0
    text = (repo / ".mcplint.yaml").read_text(encoding="utf-8")
    assert ("; check the command: src/clock_server/server.py starts nothing when run as a module\n"
            '    command: ["python", "-m", "clock_server.server"]') in text


def test_a_server_that_wants_a_setting_or_a_module_is_told_what_to_change(tmp_path):
    """A start failure names what to change in the config, from the server's own last words."""
    (tmp_path / "key.py").write_text("import sys\nsys.exit('ValueError: WEATHER_API_KEY environment variable "
                                     "required')\n", encoding="utf-8")
    (tmp_path / "dep.py").write_text("import weather_sdk_not_installed\n", encoding="utf-8")
    (tmp_path / ".mcplint.yaml").write_text(
        f"servers:\n  - name: key\n    command: [{json.dumps(sys.executable)}, key.py]\n"
        f"  - name: dep\n    command: [{json.dumps(sys.executable)}, dep.py]\n", encoding="utf-8")
    proc = run_mcplint("check", cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert ("server key: the server exited with status 1 before mcplint was done with it: ValueError: "
            "WEATHER_API_KEY environment variable required (give it its settings under env: in its entry "
            "of the config; to list its tools a dummy value usually does)") in err, err
    assert ("No module named 'weather_sdk_not_installed' (the command runs with the interpreter on PATH: run "
            "mcplint where the server's dependencies are installed, or name that interpreter in the server's "
            "command)") in err, err


def test_a_description_the_source_builds_is_not_judged_missing_when_the_server_cannot_start(tmp_path):
    repo = _src_layout_repo(tmp_path)
    (repo / ".mcplint.yaml").write_text("servers:\n  - name: clock\n    command: [python3-not-installed-here, "
                                        "-m, clock_server]\n    cwd: src\n    source: [src/]\n", encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", "--fail-on", "warning", cwd=repo)
    assert "read from the Python source instead" in proc.stderr.decode()
    assert _located(proc) == {("MCP311", "src/clock_server/server.py", 22, 21,
                               "/tools/0/inputSchema/properties/format")}


def test_init_finds_servers_made_in_one_module_and_run_by_another(tmp_path):
    """awslabs/mcp: server.py (or common/server.py, a folder without __init__.py) makes the server,
    main.py runs it; and a FastMCP subclass made and run in one file."""
    def write(path: str, text: str) -> None:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")

    write("health/src/awslabs/__init__.py", "")
    write("health/src/awslabs/health_server/__init__.py", "")
    write("health/src/awslabs/health_server/server.py", "from mcp.server import Server\nserver = Server('h')\n")
    write("health/src/awslabs/health_server/main.py", "from .server import server\n\nif __name__ == '__main__':\n"
          "    server.run()\n")
    write("cache/cache_server/__init__.py", "")
    write("cache/cache_server/common/server.py", "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('c')\n")
    write("cache/cache_server/main.py", "from cache_server.common.server import mcp\n\ndef main():\n    mcp.run()\n")
    write("tables/tables_server.py", "from mcp.server.fastmcp import FastMCP\n\nclass Tables(FastMCP):\n    pass\n\n"
          "app = Tables('t')\napp.run()\n")
    # a folder that cannot be a package name, with an __init__.py; a namespace package (no __init__.py)
    write("src/billing-server/__init__.py", "")
    write("src/billing-server/awslabs/__init__.py", "")
    write("src/billing-server/awslabs/billing/__init__.py", "")
    write("src/billing-server/awslabs/billing/server.py", "from mcp.server.fastmcp import FastMCP\nFastMCP('b').run()\n")
    write("src/security-server/awslabs/security/__init__.py", "")
    write("src/security-server/awslabs/security/server.py",
          "from awslabs.security.consts import X\nfrom mcp.server.fastmcp import FastMCP\nFastMCP('s').run()\n")
    write("mono/tools/scripts/run_server.py", "from mcp.server.fastmcp import FastMCP\nFastMCP('r').run()\n")
    # the reference servers time and git (mcp 2.x): MCPServer run by run_stdio_async() in an async
    # function, the package's __main__.py calling the package's main()
    write("ref/src/ref_server/__init__.py", "from .server import serve\n\ndef main():\n    asyncio.run(serve())\n")
    write("ref/src/ref_server/__main__.py", "from ref_server import main\n\nmain()\n")
    write("ref/src/ref_server/server.py", "from mcp.server.mcpserver import MCPServer\n\nasync def serve():\n"
          "    await MCPServer('ref').run_stdio_async()\n")
    assert run_mcplint("init", cwd=tmp_path).returncode == 0
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    # a script's source is its own folder, not the tree above it (that holds the other servers)
    assert 'command: ["python", "mono/tools/scripts/run_server.py"]\n    source: ["mono/tools/scripts/"]' in text
    assert ('command: ["python", "-m", "awslabs.health_server.main"]\n    cwd: "health/src"\n'
            '    source: ["health/src/"]') in text
    assert "server in health/src/awslabs/health_server/server.py, run by health/src/awslabs/health_server/main.py" in text
    assert 'command: ["python", "-m", "cache_server.main"]\n    cwd: "cache"' in text
    assert 'command: ["python", "tables/tables_server.py"]' in text
    for name in ("billing", "security"):
        assert (f'command: ["python", "-m", "awslabs.{name}.server"]\n    cwd: "src/{name}-server"\n'
                f'    source: ["src/{name}-server/"]') in text
    assert 'command: ["python", "-m", "ref_server"]\n    cwd: "ref/src"\n    source: ["ref/src/"]' in text
    assert text.count("  - name: ") == 7


def _init_config(folder, files: dict[str, str]) -> str:
    """Write ``files`` (path -> text) into ``folder``, run `mcplint init` there: the config it wrote."""
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    assert run_mcplint("init", cwd=folder).returncode == 0
    return (folder / ".mcplint.yaml").read_text(encoding="utf-8")


def test_init_prefers_the_console_script_of_the_server_module_to_the_package_main(tmp_path):
    """mcp-server-tree-sitter: `python -m mcp_server_tree_sitter` runs a __main__.py that starts the
    server without registering its tools; its console script names server.py's main (round 2)."""
    text = _init_config(tmp_path, {
        "src/ts_server/__init__.py": "",
        "src/ts_server/__main__.py": "from .server import mcp\n\nmcp.run()\n",
        "src/ts_server/server.py": "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('t')\n\n"
                                   "def main():\n    register_tools(mcp)\n    mcp.run()\n",
        "pyproject.toml": '[project]\nname = "ts"\n[project.scripts]\nts-server = "ts_server.server:main"\n'})
    assert 'command: ["python", "-c", "import sys; from ts_server.server import main; sys.exit(main())"]' in text, text
    assert "started by the console script ts-server (ts_server.server:main)" in text


def test_init_finds_a_server_run_by_its_package_init(tmp_path):
    """mcp-server-motherduck builds its FastMCP in server.py and runs it from `main()` in the
    package's __init__.py, the console script's target; init found no server (round 2)."""
    text = _init_config(tmp_path, {
        "src/duck_server/__init__.py": "from .server import create\n\ndef main():\n    create().run(transport='stdio')\n",
        "src/duck_server/server.py": "from fastmcp import FastMCP\n\ndef create():\n    return FastMCP('d')\n",
        "pyproject.toml": '[project]\nname = "d"\n[project.scripts]\nduck-server = "duck_server:main"\n'})
    assert 'command: ["python", "-c", "import sys; from duck_server import main; sys.exit(main())"]' in text, text
    assert 'cwd: "src"' in text


def test_init_takes_no_docstring_for_a_server_and_lists_a_command_once(tmp_path):
    """A package docstring saying "(MCPServer)" made a second entry with the same command, and
    every finding was reported twice (repository-mode round 2)."""
    text = _init_config(tmp_path, {
        "weather/__init__.py": '"""A weather server built with the official SDK (MCPServer)."""\n',
        "weather/__main__.py": "from weather.server import main\n\nmain()\n",
        "weather/server.py": "from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('w')\n\ndef main():\n    mcp.run()\n"})
    assert text.count("  - name: ") == 1 and "mcp SDK server in weather/server.py" in text, text


def test_init_writes_no_more_servers_than_a_config_may_hold(tmp_path):
    from ruamel.yaml import YAML

    from mcplint.servers.spec import MAX_SERVERS, parse_servers

    for n in range(MAX_SERVERS + 3):
        (tmp_path / f"s{n:03d}.py").write_text("from mcp.server.fastmcp import FastMCP\nFastMCP('x').run()\n")
    assert run_mcplint("init", cwd=tmp_path).returncode == 0
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    assert f"{MAX_SERVERS + 3} servers were found; a config holds at most {MAX_SERVERS}, so the last 3" in text
    assert len(parse_servers(YAML(typ="safe").load(text)["servers"], tmp_path)) == MAX_SERVERS


def test_servers_past_the_prestarted_ones_start_in_turn(tmp_path):
    from mcplint.servers.drive import PRESTART

    count = PRESTART + 2
    entries = "".join(f"  - name: notes{n}\n    command: [{json.dumps(sys.executable)}, server.py]\n"
                      for n in range(count))
    repo = _repo(tmp_path, "lowlevel-notes", "servers:\n" + entries)
    proc = run_mcplint("check", "--format", "json", "--fail-on", "never", cwd=repo)
    assert proc.returncode == 0, proc.stderr.decode()
    payload = json.loads(proc.stdout)
    assert "could not be started" not in proc.stderr.decode()
    # each listed its tools (the same source: each server's five findings land on the same lines)
    assert payload["summary"]["servers"] == count and payload["summary"]["tools"] == 4 * count
    assert len(payload["findings"]) == 5 * count


def test_init_says_a_typescript_server_must_be_built_first(tmp_path):
    """modelcontextprotocol/servers: each package's bin is dist/index.js, made by `npm run build`."""
    (tmp_path / "package.json").write_text(json.dumps({
        "name": "@acme/notes", "bin": {"notes": "dist/index.js"}, "scripts": {"build": "tsc"},
        "dependencies": {"@modelcontextprotocol/sdk": "^1.30.0"}}), encoding="utf-8")
    assert run_mcplint("init", cwd=tmp_path).returncode == 0
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    assert "; build it first (dist/index.js does not exist: npm run build)\n" in text
    assert 'command: ["node", "dist/index.js"]' in text


@pytest.mark.parametrize("tail, gist", [
    (r"node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module '/r/dist/index.js'\n"
     r"    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n{\n  code: 'MODULE_NOT_FOUND'\n}\n\n"
     r"Node.js v20.20.2", "Error: Cannot find module '/r/dist/index.js'"),
    (r"Traceback (most recent call last):\n  File \"/r/server.py\", line 17, in <module>\n    import boto3\n"
     r"ModuleNotFoundError: No module named 'boto3'", "ModuleNotFoundError: No module named 'boto3'"),
    (r"listening failed\nport 8000 in use", "port 8000 in use"),
    # server-redis: a logger's tag before the error, then the frames of its stack
    (r"[Redis Fatal] Server initialization failed\n[Redis Fatal] Error: Error: Max retries reached\n"
     r"[Redis Fatal] Stack: Error: Max retries reached\n    at RedisSocket.connect (/r/socket.js:162:117)\n"
     r"    at async runServer (file:///r/dist/index.js:240:9)", "[Redis Fatal] Error: Error: Max retries reached"),
    (r"starting\nfatal: no config\n    at main (/r/index.js:3:1)", "fatal: no config"),
    # @upstash/mcp-server offline: Node's error object, its cause inside; not its last field
    (r"Fatal error in main(): TypeError: fetch failed\n    at node:internal/deps/undici/undici:13510:13 {\n"
     r"  [cause]: Error: getaddrinfo ENOTFOUND api.upstash.com\n      at GetAddrInfoReqWrap.onlookupall (node:dns:120:26) {\n"
     r"    errno: -3008,\n    hostname: 'api.upstash.com'\n  }\n}\n\nNode.js v20.20.2",
     "[cause]: Error: getaddrinfo ENOTFOUND api.upstash.com"),
    (r"Fatal error in main(): TypeError: fetch failed\n    hostname: 'api.upstash.com'\n}",
     "Fatal error in main(): TypeError: fetch failed"),
    # chroma-mcp on an unknown method: an exception group's boxed tracebacks (mcp 1.6 over anyio)
    (r"  + Exception Group Traceback (most recent call last):\n  |   File \"/r/server.py\", line 9, in run\n"
     r"  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n  +-+---------------- 1 ----------------\n"
     r"    | Traceback (most recent call last):\n    |   File \"/r/session.py\", line 3, in receive\n"
     r"    | pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerRequest\n"
     r"    +------------------------------------",
     "pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerRequest"),
])
def test_a_start_failure_is_told_by_its_exception_line(tail, gist):
    """One line that says what went wrong: Node prints its version after the error, and a Python
    traceback's cause is its last line."""
    from mcplint.audit.server_text import stderr_gist
    from mcplint.servers import _last_line

    assert stderr_gist(tail.replace("\\n", "\n")) == gist
    why = f"the server exited with status 1 before mcplint was done with it; its stderr says: {gist}"
    assert _last_line(why) == f"the server exited with status 1 before mcplint was done with it: {gist}"
    assert _last_line("the server closed its standard output") == "the server closed its standard output"


@pytest.mark.parametrize("audit", [False, True])
def test_a_banner_on_stdout_is_a_warning_when_listing_and_a_finding_when_audited(tmp_path, audit):
    """A stdio server that prints a banner to stdout is listed all the same; listing alone says so in
    a warning (no traffic rule runs on a listing), and `audit: true` reports MCP617."""
    servers = FIXTURES / "servers"
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".mcplint.yaml").write_text(
        "servers:\n  - name: notes\n"
        f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(servers / 'garbage_stdout.py'))}]\n"
        + ("    audit: true\n" if audit else ""), encoding="utf-8")
    proc = run_mcplint("check", "--format", "json", cwd=repo)
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 2, proc.stderr.decode()
    rules = [f["rule"] for f in report["findings"]]
    warning = ("server notes: wrote 1 line(s) to its standard output that are not JSON-RPC "
               "(the first: 'Notes server 1.0 ready, listening on stdio')")
    if audit:
        assert "MCP617" in rules and proc.returncode == 1
        assert warning not in proc.stderr.decode()
    else:
        assert "MCP617" not in rules and proc.returncode == 0
        assert f"mcplint: warning: {warning}" in proc.stderr.decode()


@pytest.mark.parametrize("sdk", ["@modelcontextprotocol/server", "@modelcontextprotocol/node"])
def test_init_finds_a_server_on_the_split_typescript_sdk(tmp_path, sdk):
    """TypeScript SDK 2.x comes as @modelcontextprotocol/server (+ /node for its transports):
    chrome-devtools-mcp and mongodb-mcp-server depend on those, not on /sdk."""
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "main.js").write_text("", encoding="utf-8")
    (tmp_path / "package.json").write_text(json.dumps({
        "name": "@acme/pages", "bin": {"pages-mcp": "./build/main.js", "pages": "./build/cli.js"},
        "dependencies": {sdk: "^2.0.0"}}), encoding="utf-8")
    assert run_mcplint("init", cwd=tmp_path).returncode == 0
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    assert f'  - name: pages                # {sdk} in package.json\n    command: ["node", "build/main.js"]' in text
