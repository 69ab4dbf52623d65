"""`mcplint init`'s comment on the environment variables a server's source reads: JavaScript and
TypeScript servers too (`process.env.X`, in build output as well), every name counted (the
first eight shown), and the interpreter's own variables left out."""

from __future__ import annotations

import json
from pathlib import Path

from mcplint.servers.detect import detect, render

SDK = {"dependencies": {"@modelcontextprotocol/sdk": "1.0.0"}}


def _entry_lines(folder: Path) -> list[str]:
    return [line for line in render(detect(folder)) if line.lstrip().startswith("#") and "env" in line]


def test_a_javascript_server_run_from_dist_lists_what_it_reads(tmp_path: Path):
    (tmp_path / "package.json").write_text(json.dumps({**SDK, "bin": "dist/index.js"}))
    (tmp_path / "dist" / "utils").mkdir(parents=True)
    (tmp_path / "dist" / "index.js").write_text(
        'const key = process.env.BRAVE_API_KEY;\nif (process.env.NODE_ENV === "x") {}\n')
    (tmp_path / "dist" / "utils" / "env.js").write_text(
        'exports.id = () => node_process_1.default.env.SERVICE_ID;\nconst h = process.env["OPENAPI_MCP_HEADERS"];\n')
    assert _entry_lines(tmp_path) == [
        "    # its source reads BRAVE_API_KEY, OPENAPI_MCP_HEADERS, SERVICE_ID: set those it needs under env:",
        "    # env: {BRAVE_API_KEY: dummy}"]


def test_a_long_list_says_how_many_more_and_keeps_every_secret(tmp_path: Path):
    names = [f"APP_SETTING_{i:02}" for i in range(10)] + ["ZED_TOKEN"]
    reads = "".join(f"os.environ.get('{name}')\n" for name in names)
    (tmp_path / "server.py").write_text(
        "import os, sys\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n" + reads
        + "os.environ.get('PYTHONIOENCODING')\nif __name__ == '__main__':\n    mcp.run()\n")
    lines = _entry_lines(tmp_path)
    assert lines[0] == ("    # its source reads " + ", ".join(names[:8]) + " and 3 more: set those it needs under env:")
    assert lines[1] == "    # env: {ZED_TOKEN: dummy}"  # the ninth name onwards still counts
    assert "PYTHONIOENCODING" not in "".join(lines)


def _cli_lines(folder: Path) -> list[str]:
    return [line for line in render(detect(folder)) if "command line" in line or "command-line" in line]


def test_required_command_line_arguments_are_named(tmp_path: Path):
    """duckdb's server requires --db-path and server-postgres a database URL (process.argv[2]): a
    bare command fell back to reading the source, silently (repository mode round 3)."""
    (tmp_path / "server.py").write_text(
        "import argparse\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--db-path', type=str, required=True)\n"
        "parser.add_argument('--readonly', action='store_true')\nparser.add_argument('dsn', help='the database')\n"
        "if __name__ == '__main__':\n    mcp.run()\n")
    assert _cli_lines(tmp_path) == [
        "    # its source reads required command-line arguments (--db-path, dsn): add them to command"]


def test_a_stdio_switch_and_positional_arguments_of_a_javascript_server(tmp_path: Path):
    """figma serves HTTP unless given --stdio (cleye: `stdio: {type: Boolean}`); azure-devops takes
    `<organization>`."""
    (tmp_path / "package.json").write_text(json.dumps({**SDK, "bin": "dist/bin.js"}))
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "bin.js").write_text(
        'const argv = cli({ flags: { stdio: { type: Boolean, description: "Run in stdio mode" } } });\n'
        'yargs(hideBin(process.argv)).usage("Usage: $0 <organization> [options]");\n')
    assert _cli_lines(tmp_path) == [
        "    # its source reads required command-line arguments (<organization>): add them to command",
        "    # its command line has a --stdio switch: add it if the server serves HTTP without it"]


def test_a_server_without_arguments_gets_no_such_comment(tmp_path: Path):
    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\nif __name__ == '__main__':\n    mcp.run()\n")
    assert _cli_lines(tmp_path) == []


def test_a_go_server_is_started_with_go_run(tmp_path: Path):
    """A module requiring mcp-go with a main package that serves stdio got no servers: entry, only
    the commented Python example (mcp-grafana, repository mode round 3)."""
    (tmp_path / "go.mod").write_text("module example.com/srv\n\ngo 1.23\n\nrequire github.com/mark3labs/mcp-go v0.41.0\n")
    (tmp_path / "cmd" / "srv").mkdir(parents=True)
    (tmp_path / "cmd" / "srv" / "main.go").write_text(
        'package main\n\nimport "github.com/mark3labs/mcp-go/server"\n\nfunc main() {\n'
        '\ts := server.NewMCPServer("srv", "1.0.0")\n\tserver.ServeStdio(s)\n}\n')
    (tmp_path / "internal").mkdir()
    (tmp_path / "internal" / "tools.go").write_text("package internal\n\nfunc Tools() {}\n")
    found = detect(tmp_path)
    assert [(d.name, d.command, d.source) for d in found] == [("srv", ("go", "run", "./cmd/srv"), (".",))]
    assert "github.com/mark3labs/mcp-go server in cmd/srv" in found[0].how
