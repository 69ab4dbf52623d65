"""The command line. Thin: parse flags, build a Plan, run the engine, render a report.

Only typer and the standard library are imported at module level so that
`--help` and `--version` stay fast; everything else is imported where used.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from mcplint import __version__

app = typer.Typer(
    name="mcplint",
    help="Compliance linter for Model Context Protocol (MCP) servers.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class Format(str, Enum):
    rich = "rich"
    json = "json"
    sarif = "sarif"
    github = "github"
    junit = "junit"
    gitlab = "gitlab"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


class ListFormat(str, Enum):
    table = "table"
    json = "json"


def _version_callback(value: bool) -> None:
    if value:
        print(f"mcplint {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True, help="Show the version and exit."),
) -> None:
    """Compliance linter for Model Context Protocol (MCP) servers."""


def _split(values: Optional[List[str]]) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


@app.command()
def check(
    paths: Optional[List[str]] = typer.Argument(None, help="Files or folders to lint; '-' reads standard input. None: the current folder and the servers in the config."),
    format: Format = typer.Option(Format.rich, "--format", "-f", help="Report format."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file instead of standard output."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rules to run: codes, code prefixes, names or ALL (comma-separated or repeated)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rules to skip (same forms as --select)."),
    protocol_version: Optional[str] = typer.Option(None, "--protocol-version", help="Protocol version to lint against (default: inferred from the document, else the newest)."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (default: .mcplint.yaml or [tool.mcplint] in pyproject.toml, found upward)."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", help="Lowest severity that makes the exit code 1 [default: error]."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Say which files were skipped and why."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", help="Report only findings that this baseline file does not list (written by --write-baseline)."),
    write_baseline: Optional[Path] = typer.Option(None, "--write-baseline", help="Write every current finding to this baseline file and exit 0."),
    sarif_output: Optional[Path] = typer.Option(None, "--sarif-output", help="Also write a SARIF report to this file, whatever --format prints."),
    skip_non_manifests: bool = typer.Option(False, "--skip-non-manifests", help="Treat named files like files found in a folder: skip those that are not MCP manifests, apply include/exclude (for pre-commit)."),
    lock: Optional[Path] = typer.Option(None, "--lock", help="Report tools added, removed or changed since this lock file (written by `mcplint lock`)."),
    servers: Optional[bool] = typer.Option(None, "--servers/--no-servers", help="Start and lint the servers the config lists (default: only when no paths are given)."),
    servers_only: bool = typer.Option(False, "--servers-only", help="Lint only the configured servers, no files (the mcplint-servers pre-commit hook)."),
    audit: bool = typer.Option(False, "--audit", help="Also run the audit's safe probes on every configured server (as `audit: true` does for one)."),
) -> None:
    """Lint MCP manifests and captures (JSON, YAML, JSONL, HAR) and the servers the config lists."""
    from mcplint.commands.check import run_check

    code = run_check(
        paths=paths, fmt=format.value, output=output, select=_split(select), ignore=_split(ignore),
        protocol_version=protocol_version, config_path=config,
        fail_on=fail_on.value if fail_on else None, verbose=verbose,
        baseline=baseline, write_baseline=write_baseline,
        sarif_output=sarif_output, skip_non_manifests=skip_non_manifests,
        lock=lock, servers=servers, servers_only=servers_only, audit=audit,
    )
    raise typer.Exit(code)


@app.command()
def audit(
    target: List[str] = typer.Argument(..., metavar="URL | -- COMMAND [ARG...]", help="A Streamable HTTP endpoint URL, or -- and the command that starts a stdio server."),
    format: Format = typer.Option(Format.rich, "--format", "-f", help="Report format."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file instead of standard output."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rules to run: codes, code prefixes, names or ALL (comma-separated or repeated)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rules to skip (same forms as --select)."),
    protocol_version: Optional[str] = typer.Option(None, "--protocol-version", help="Speak this protocol version instead of detecting the server's (server/discover, then initialize)."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (default: .mcplint.yaml or [tool.mcplint] in pyproject.toml, found upward)."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", help="Lowest severity that makes the exit code 1 [default: error]."),
    record: Optional[Path] = typer.Option(None, "--record", help="Write the session to this .jsonl transcript (credentials redacted); `mcplint check` reads it."),
    env: Optional[List[str]] = typer.Option(None, "--env", help="KEY=VALUE for the server's environment (stdio; repeatable)."),
    cwd: Optional[Path] = typer.Option(None, "--cwd", help="Working directory of the server (stdio)."),
    header: Optional[List[str]] = typer.Option(None, "--header", "-H", help="'Name: value' sent with every request (HTTP; repeatable); $VAR and ${VAR} are read from the environment."),
    timeout: float = typer.Option(10.0, "--timeout", help="Seconds to wait for each answer (also for the server to start)."),
    call_read_only: bool = typer.Option(False, "--call-read-only", help="Also call tools annotated read-only, with no side effect in name, description or schema (open-world ones too), once with valid arguments."),
    allow_calls: Optional[List[str]] = typer.Option(None, "--allow-calls", help="Tools the audit may call whatever their annotations say (comma-separated or repeated)."),
    probe_rate_limit: Optional[int] = typer.Option(None, "--probe-rate-limit", metavar="N", help="Send up to N cheap requests (N <= 500) within 10 s and report any throttling."),
    sarif_output: Optional[Path] = typer.Option(None, "--sarif-output", help="Also write a SARIF report to this file, whatever --format prints."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log each probe and what it saw to standard error."),
) -> None:
    """Audit a live MCP server: run safe probes, record the session, lint it."""
    from mcplint.commands.audit import run_audit

    code = run_audit(
        target=target, fmt=format.value, output=output, select=_split(select), ignore=_split(ignore),
        protocol_version=protocol_version, config_path=config, fail_on=fail_on.value if fail_on else None,
        verbose=verbose, record=record, env=env or [], cwd=str(cwd) if cwd is not None else None,
        headers=header or [], timeout=timeout, call_read_only=call_read_only, allow_calls=allow_calls or [],
        probe_rate_limit=probe_rate_limit, sarif_output=sarif_output,
    )
    raise typer.Exit(code)


@app.command()
def lock(
    paths: List[str] = typer.Argument(..., help="Manifest files or folders to pin (walked like `check`)."),
    output: Path = typer.Option(Path("mcplint.lock"), "--output", "-o", help="The lock file to write."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (its include/exclude apply to walked folders)."),
) -> None:
    """Pin tool definitions: write a lock file with a hash and a copy of every tool."""
    from mcplint.commands.lock import run_lock

    raise typer.Exit(run_lock(paths=paths, output=output, config_path=config))


@app.command()
def init(force: bool = typer.Option(False, "--force", help="Overwrite an existing config file.")) -> None:
    """Write a commented starter .mcplint.yaml for the current folder."""
    from mcplint.commands.init import run_init

    raise typer.Exit(run_init(force=force))


@app.command()
def rules(
    format: ListFormat = typer.Option(ListFormat.table, "--format", "-f", help="table or json."),
) -> None:
    """List every rule with its code, name, checklist items and default severity."""
    from mcplint.commands.rules import list_rules

    list_rules(format.value)


@app.command()
def explain(rule: str = typer.Argument(..., help="A rule code (MCP201) or name (tool-name-missing).")) -> None:
    """Show a rule's documentation."""
    from mcplint.commands.rules import explain_rule

    explain_rule(rule)


def main() -> None:
    """Entry point: one-line errors and exit code 2 instead of tracebacks."""
    from mcplint.errors import MCPLintError

    try:
        app(prog_name="mcplint")
    except MCPLintError as err:
        _fail(str(err))
    except KeyboardInterrupt:
        _fail("interrupted")
    except BrokenPipeError:
        os._exit(1)
    except Exception as err:  # never a traceback; MCPLINT_DEBUG=1 shows it
        if os.environ.get("MCPLINT_DEBUG"):
            raise
        _fail(f"internal error: {type(err).__name__}: {err} (set MCPLINT_DEBUG=1 for details)")


def _fail(message: str) -> None:
    from mcplint.text_safety import printable  # a file name or a server's words: any string

    print(printable(f"mcplint: error: {message}"), file=sys.stderr)
    sys.exit(2)
