"""The command line, defined once, with typer. Thin: parse flags, hand them to mcplint.commands.

mcplint.entry reads the everyday `check` line and `--version` without importing this module;
here only typer and the standard library are imported at module level so that `--help` stays
fast; everything else is imported where used.
"""

from __future__ import annotations

import inspect
import re
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from typer.core import TyperCommand

from mcplint import __version__
# Console scripts installed before mcplint.entry became the entry point still call mcplint.cli:main.
from mcplint.entry import main  # noqa: F401
from mcplint.regex_cache import regex

class _Command(TyperCommand):
    """Usage lines as click writes them (``PATH...``, not typer's ``{paths}...``), and a hint when
    ``audit`` gets the server's own options without ``--`` in front of its command."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        # typer wraps required arguments in braces; a single word needs none
        return [re.sub(r"^\{([^{}\s]+)\}$", r"\1", piece) for piece in super().collect_usage_pieces(ctx)]

    def parse_args(self, ctx, args):
        given = list(args)  # click's parser consumes the list
        try:
            return super().parse_args(ctx, args)
        except Exception as err:  # click's NoSuchOption (typer >= 0.28 vendors click: matched by shape)
            hint = _server_options_hint(self, given, getattr(err, "option_name", None))
            if hint is None:
                raise
            err.message, err.possibilities = hint, None
            raise


def _server_options_hint(command, args: list[str], option: str | None) -> str | None:
    """For `mcplint audit python3 server.py --tools 3`: the unknown option follows a bare server
    command, so it belongs to the server; say to put the command after --."""
    if command.name != "audit" or option is None or "--" in args:
        return None
    at = next((i for i, arg in enumerate(args) if arg == option or arg.startswith(option + "=")), None)
    takes_value = {name for p in command.params if getattr(p, "param_type_name", "") == "option"
                   and not getattr(p, "is_flag", False) and not getattr(p, "count", False)
                   for name in (*p.opts, *p.secondary_opts)}
    words, skip = [], False
    for arg in args[:at]:
        if skip:
            skip = False
        elif arg in takes_value:
            skip = True
        elif not arg.startswith("-"):
            words.append(arg)
    if at is None or not words or "://" in words[0]:
        return None
    import shlex

    return (f"No such option: {option}. If it is the server's, put the server's command after --: "
            f"mcplint audit [OPTIONS] -- {shlex.join([*words, *args[at:]])}")


_MARKUP = regex(r"(\\*)(\[[a-z#/@][^[]*?])")  # what rich reads as a style tag (rich.markup.RE_TAGS)


def _escape_markup(text: str | None) -> str | None:
    """rich.markup.escape without importing rich (json and sarif runs never load it):
    typer renders help as rich markup, which would eat `[tool.mcplint]` and `[default: error]`."""
    if not text:
        return text
    text = _MARKUP.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def _escape_help(typer_app: typer.Typer) -> None:
    """Escape every help text (the app's, each command's docstring, every option and argument)
    once, here, so that none written later can lose its brackets."""
    typer_app.info.help = _escape_markup(typer_app.info.help)
    infos = [typer_app.registered_callback] if typer_app.registered_callback else []
    for info in [*infos, *typer_app.registered_commands]:
        info.help = _escape_markup(info.help if info.help is not None else inspect.getdoc(info.callback))
        for parameter in inspect.signature(info.callback).parameters.values():
            if hasattr(parameter.default, "help"):  # typer's OptionInfo / ArgumentInfo
                parameter.default.help = _escape_markup(parameter.default.help)


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


QUIET_HELP = "Print only the findings and a one-line summary (no tables, no checklist); machine formats are unchanged."
STATISTICS_HELP = "Print how many findings each rule has, most first, and the one-line summary instead of the findings."


@app.command(cls=_Command)
def check(
    paths: Optional[List[str]] = typer.Argument(None, metavar="[PATH]...", help="Files or folders to lint (manifests, listings, captures); '-' reads standard input. None: the current folder and the servers in the config."),
    format: Format = typer.Option(Format.rich, "--format", "-f", help="Report format."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file instead of standard output."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rules to run: codes, code prefixes, names or ALL (comma-separated or repeated)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rules to skip (same forms as --select)."),
    protocol_version: Optional[str] = typer.Option(None, "--protocol-version", help="Protocol version to lint against (default: inferred from the document, else the newest)."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (default: .mcplint.yaml or [tool.mcplint] in pyproject.toml, found upward)."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", help="Lowest severity that makes the exit code 1 [default: error]."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Say which files were skipped and why."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
    statistics: bool = typer.Option(False, "--statistics", help=STATISTICS_HELP),
    baseline: Optional[Path] = typer.Option(None, "--baseline", help="Report only findings that this baseline file does not list (written by --write-baseline)."),
    write_baseline: Optional[Path] = typer.Option(None, "--write-baseline", help="Write every current finding to this baseline file and exit 0."),
    sarif_output: Optional[Path] = typer.Option(None, "--sarif-output", help="Also write a SARIF report to this file, whatever --format prints."),
    skip_non_manifests: bool = typer.Option(False, "--skip-non-manifests", help="Treat named files like files found in a folder: skip those that are not MCP manifests, listings or captures, apply include/exclude (for pre-commit)."),
    lock: Optional[Path] = typer.Option(None, "--lock", help="Report tools added, removed or changed since this lock file (written by `mcplint lock`)."),
    servers: Optional[bool] = typer.Option(None, "--servers/--no-servers", help="Start and lint the servers the config lists (default: only when no paths are given)."),
    servers_only: bool = typer.Option(False, "--servers-only", help="Lint only the configured servers, no files (the mcplint-servers pre-commit hook)."),
    audit: bool = typer.Option(False, "--audit", help="Also run the audit's safe probes on every configured server (as `audit: true` does for one)."),
) -> None:
    """Lint MCP manifests (tool, prompt and resource listings in JSON or YAML), captures (JSONL, HAR) and the servers the config lists."""
    from mcplint.commands.check import run_check_command  # mcplint.entry reads the everyday line without typer

    raise typer.Exit(run_check_command(
        paths=paths, format=format.value, output=output, select=select, ignore=ignore,
        protocol_version=protocol_version, config=config, fail_on=fail_on.value if fail_on else None,
        verbose=verbose, quiet=quiet, statistics=statistics, baseline=baseline, write_baseline=write_baseline,
        sarif_output=sarif_output, skip_non_manifests=skip_non_manifests, lock=lock, servers=servers,
        servers_only=servers_only, audit=audit,
    ))


@app.command(cls=_Command)
def audit(
    target: List[str] = typer.Argument(..., metavar="URL | -- COMMAND [ARG...]", help="A Streamable HTTP endpoint URL, or -- and the command that starts a stdio server (the -- may be left out when the command has no options of its own)."),
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
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
    statistics: bool = typer.Option(False, "--statistics", help=STATISTICS_HELP),
) -> None:
    """Audit a live MCP server: run safe probes, record the session, lint it."""
    from mcplint.commands.audit import run_audit
    from mcplint.commands.output import report_view, split_values

    code = run_audit(
        target=target, fmt=format.value, output=output, select=split_values(select), ignore=split_values(ignore),
        protocol_version=protocol_version, config_path=config, fail_on=fail_on.value if fail_on else None,
        verbose=verbose, view=report_view(format.value, quiet, statistics), record=record, env=env or [],
        cwd=str(cwd) if cwd is not None else None,
        headers=header or [], timeout=timeout, call_read_only=call_read_only, allow_calls=allow_calls or [],
        probe_rate_limit=probe_rate_limit, sarif_output=sarif_output,
    )
    raise typer.Exit(code)


@app.command(cls=_Command)
def lock(
    paths: List[str] = typer.Argument(..., metavar="PATH...", help="Manifest files or folders to pin (walked like `check`)."),
    output: Path = typer.Option(Path("mcplint.lock"), "--output", "-o", help="The lock file to write."),
    config: Optional[Path] = typer.Option(None, "--config", help="Config file (its include/exclude apply to walked folders)."),
) -> None:
    """Pin tool definitions: write a lock file with a hash and a copy of every tool."""
    from mcplint.commands.lock import run_lock

    raise typer.Exit(run_lock(paths=paths, output=output, config_path=config))


@app.command(cls=_Command)
def init(force: bool = typer.Option(False, "--force", help="Overwrite an existing config file.")) -> None:
    """Write a commented starter .mcplint.yaml for the current folder."""
    from mcplint.commands.init import run_init

    raise typer.Exit(run_init(force=force))


@app.command(cls=_Command)
def rules(
    rule: Optional[str] = typer.Argument(None, metavar="[RULE]", help="A rule code or name: show its documentation "
                                                                     "(as `explain`) instead of the list."),
    format: ListFormat = typer.Option(ListFormat.table, "--format", "-f", help="table or json."),
) -> None:
    """List every rule with its code, name, checklist items and default severity."""
    from mcplint.commands.rules import explain_rule, list_rules

    if rule is not None:  # `mcplint rule MCP221` is answered "did you mean 'rules'?": it should work then
        explain_rule(rule)
        return
    list_rules(format.value)


@app.command(cls=_Command)
def explain(rule: str = typer.Argument(..., metavar="RULE", help="A rule code (MCP201) or name (tool-name-missing).")) -> None:
    """Show a rule's documentation."""
    from mcplint.commands.rules import explain_rule

    explain_rule(rule)


_escape_help(app)

