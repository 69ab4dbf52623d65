"""`mcplint audit`: drive a live server, record the session, lint the transcript.

The lint step is exactly `mcplint check FILE.jsonl` on the recorded transcript (same
engine call, same plan from config and flags, same reporters and exit codes); only
the report's ``path`` is the command or URL instead of the transcript's file name.

An audit that fails midway (the server crashed, hung, flooded, ...) still reports:
the transcript so far is linted and reported (``summary.audit.stopped`` says why),
then the one-line error follows and the exit code is 2.

A SIGTERM at any point of the command (while the server runs, or afterwards while the
transcript is linted and reported) is handled like Ctrl-C: the server and everything it
started are stopped, the temporary recording is removed, and the exit code is 130.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from mcplint import __version__, config as config_module, discovery, engine, registry, reporters
from mcplint.audit import options as audit_options
from mcplint.audit import reasons, runner
from mcplint.interrupts import TerminateAsInterrupt
from mcplint.commands.output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, want_color, write_report
from mcplint.errors import MCPLintError
from mcplint.findings import Severity
from mcplint.summary import ReadFailure, summarize
from mcplint.versions import VERSIONS

TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson")


class AuditFailed(MCPLintError):
    """The audit could not finish; ``audit`` is what it got so far (None before it began)."""

    def __init__(self, message: str, audit, server_lines: int) -> None:
        super().__init__(message)
        self.audit, self.server_lines = audit, server_lines

def run_audit(*, target, fmt, output, select, ignore, protocol_version, config_path, fail_on, verbose,
              view="full", record=None, env=(), cwd=None, headers=(), timeout=10.0, call_read_only=False,
              allow_calls=(), probe_rate_limit=None, sarif_output=None) -> int:
    if protocol_version is not None and protocol_version not in VERSIONS:
        raise MCPLintError(f"--protocol-version {protocol_version!r} is not one of {', '.join(VERSIONS)}")
    if config_path is not None and not Path(config_path).is_file():
        raise MCPLintError(f"{config_path}: config file not found")
    if not timeout > 0 or timeout > 3600:
        raise MCPLintError("--timeout must be a number of seconds between 0 and 3600")
    if probe_rate_limit is not None and not 1 <= probe_rate_limit <= runner.probes.MAX_RATE_LIMIT:
        raise MCPLintError(f"--probe-rate-limit must be between 1 and {runner.probes.MAX_RATE_LIMIT}")
    if record is not None and Path(record).suffix.lower() not in TRANSCRIPT_SUFFIXES:
        raise MCPLintError(f"--record {record}: name the file *.jsonl (mcplint check reads transcripts by that suffix)")
    url, argv = _target(list(target or []), env, cwd, headers)
    user_headers = audit_options.parse_headers(list(headers or [])) if url else {}
    server_env = audit_options.parse_env(list(env or []))
    if cwd is not None and not Path(cwd).is_dir():
        raise MCPLintError(f"--cwd {cwd}: not a directory")
    cfg = config_module.load(Path(config_path) if config_path else config_module.discover())
    registry.check_selectors(select or (), "--select")
    registry.check_selectors(ignore or (), "--ignore")
    plan = engine.Plan.build(cfg, select or None, ignore, protocol_version)
    label = url or shlex.join(argv)
    settings = runner.Settings(
        timeout=timeout, protocol_version=protocol_version, call_read_only=call_read_only,
        allow_calls=tuple(_split_names(allow_calls)), rate_limit=probe_rate_limit,
    )

    temp_dir = None
    terminated = TerminateAsInterrupt()  # the whole command: a kill still removes the recording
    try:
        if record is None:
            temp_dir = tempfile.mkdtemp(prefix="mcplint-audit-")
            record_path = Path(temp_dir) / "session.jsonl"
        else:
            record_path = Path(record)
        try:
            audit = _drive(url, argv, label, server_env, cwd, user_headers, settings, record_path, verbose,
                           quiet=view == "quiet")
        except AuditFailed as failed:
            if failed.audit is not None and failed.server_lines:  # never lose the report: findings so far
                failed.audit.stopped = str(failed)
                _report(failed.audit, label, url, argv, record_path, record is not None, plan, cfg, fmt, output,
                        fail_on, sarif_output, partial=True, view=view)
            raise MCPLintError(str(failed)) from None
        if audit.stopped:  # turned away at initialize (401/403): reported, but nothing past it was audited
            _report(audit, label, url, argv, record_path, record is not None, plan, cfg, fmt, output, fail_on,
                    sarif_output, partial=True, view=view)
            raise MCPLintError(f"{label}: {audit.stopped}")
        return _report(audit, label, url, argv, record_path, record is not None, plan, cfg, fmt, output, fail_on,
                       sarif_output, view=view)
    finally:
        terminated.hold()  # a SIGTERM now waits until the folder is gone
        try:
            if temp_dir is not None:
                shutil.rmtree(temp_dir, ignore_errors=True)
        finally:
            terminated.restore()


def _target(target: list[str], env, cwd, headers) -> tuple[str | None, list[str]]:
    if not target:
        raise MCPLintError("nothing to audit: give a URL, or -- and the command that starts the server")
    if audit_options.looks_like_url(target[0]):
        if len(target) > 1:
            raise MCPLintError(f"{target[0]}: a URL takes no further arguments (got {shlex.join(target[1:])})")
        audit_options.check_url(target[0])
        if env or cwd:
            raise MCPLintError("--env and --cwd apply to a server command, not to a URL")
        return target[0], []
    if headers:
        raise MCPLintError("--header applies to a URL, not to a server command (use --env for its environment)")
    return None, target


def _split_names(values) -> list[str]:
    return [part.strip() for value in values or () for part in value.split(",") if part.strip()]


def _drive(url, argv, label, server_env, cwd, user_headers, settings, record_path: Path, verbose: bool,
           quiet: bool = False):
    from mcplint import progress
    from mcplint.servers.drive import DriveFailed, drive

    log = (lambda line: print(f"mcplint: audit: {line}", file=sys.stderr)) if verbose else (lambda line: None)
    try:
        with progress.shown(enabled=not quiet):  # a spinner saying what the audit waits for, on a terminal only
            progress.stage("starting the server" if url is None else f"connecting to {url}")
            audit = drive(url=url, argv=argv, label=label, env=server_env, cwd=cwd, headers=user_headers,
                          settings=settings, record_path=record_path, log=log, steps=runner.run)
    except DriveFailed as failed:
        raise AuditFailed(str(failed), failed.audit, failed.server_lines) from None
    for note in audit.notes:
        if note != audit.stopped:  # that one ends the command as its error line
            print(f"mcplint: audit: {note}", file=sys.stderr)
    return audit


def audit_name(url: str | None, argv: list[str]) -> str:
    """What reports call a server audited from the command line: ``audit:<name>#message-<n>``.
    The URL's host and path, or the script, package or program that the command starts."""
    if url is not None:
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        return (parts.netloc + parts.path.rstrip("/")) or url
    args = argv[1:]
    if "-m" in args[:-1]:  # python -m package
        chosen = args[args.index("-m") + 1]
    else:
        plain = [a for a in args if not a.startswith("-")]
        pathish = [a for a in plain if "/" in a or "\\" in a or a.startswith("@") or a.endswith(_SCRIPT_SUFFIXES)]
        chosen = (pathish or plain or argv[:1])[0]
    parts = [p for p in chosen.replace("\\", "/").split("/") if p]
    stem = parts[-1] if parts else Path(argv[0]).name
    for suffix in _SCRIPT_SUFFIXES:
        stem = stem.removesuffix(suffix)
    if stem in _GENERIC_STEMS:  # node .../server-memory/dist/index.js: the package's folder says more
        stem = next((p for p in reversed(parts[:-1]) if p not in _BUILD_DIRS), stem)
    return stem.split("@")[0] or Path(argv[0]).name


_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts")
_GENERIC_STEMS = {"index", "main", "server", "cli", "app", "__main__", "run"}
_BUILD_DIRS = {"dist", "build", "src", "lib", "bin", "out", "."}


def _report(audit, label, url, argv, record_path: Path, recorded: bool, plan, cfg, fmt, output, fail_on,
            sarif_output, partial: bool = False, view: str = "full") -> int:
    """Lint the transcript and write the report; ``partial``: of a failed audit, whose own
    error is the one line on stderr (the linter's complaints about a cut transcript are not)."""
    result = engine.run([discovery.Target(str(record_path), True)], plan)
    shown = discovery.display_path(str(record_path))
    if not recorded:  # no file to open: each finding names its message, audit:<name>#message-<n>
        from mcplint.servers.relocate import traffic_finding

        name = audit_name(url, argv)
        result.findings = [traffic_finding(f, name) if f.path == shown else f for f in result.findings]
        result.findings.sort(key=lambda f: f.sort_key)
        result.sources.pop(shown, None)
    for report in result.files:
        if report.path == shown:
            report.path = shown if recorded else f"audit:{name}"
            reasons.explain(audit, report)  # the audit's own reasons for what it could not assess
    result.errors = [e.replace(shown, label) for e in result.errors]
    for message in result.errors if not partial else ():
        print(f"mcplint: error: {message}", file=sys.stderr)

    selected = tuple(plan.selected)  # registry entries: SARIF alone imports their modules
    summary = summarize(result.findings, selected, result.files, result.skipped, result.errors)
    _add_probes(summary, audit)
    summary["audit"] = _audit_summary(audit, label, url)
    to_terminal = output is None and sys.stdout.isatty()
    ctx = reporters.ReportContext(
        rules=selected, summary=summary, tool_version=__version__, files=tuple(result.files),
        color=want_color(to_terminal) if fmt == "rich" else False,
        width=shutil.get_terminal_size((100, 24)).columns if to_terminal else 100,
        sources=result.sources, levels=plan.severity,
        # a stopped audit is an input that could not be read whole: JUnit, GitLab, SARIF and
        # GitHub must say so instead of showing a clean run
        failures=(ReadFailure(label, f"{label}: {audit.stopped}"),) if partial and audit.stopped else (),
        extra={"view": view},
    )
    text = reporters.render(fmt, result.findings, ctx)
    if partial and fmt == "rich":  # machine formats carry it in summary.audit.stopped
        text += ("\nThe audit stopped early (the error follows on stderr): this report covers only what the "
                 "server did before.\n")
    write_report(text, output)
    if sarif_output is not None:
        write_report(text if fmt == "sarif" else reporters.render("sarif", result.findings, ctx), sarif_output)
    if result.errors:
        return EXIT_ERROR
    threshold = fail_on or cfg.fail_on
    if threshold == "never":
        return EXIT_OK
    rank = Severity(threshold).rank
    return EXIT_FINDINGS if any(f.severity.rank >= rank for f in result.findings) else EXIT_OK


def _add_probes(summary: dict, audit) -> None:
    """Each checklist entry names the probes that ran for it (the reasons of what they could
    not show are the transcript report's, see mcplint.audit.reasons)."""
    for entry in summary.get("checklist", []):
        entry["probes"] = [r.name for r in audit.results if r.ran and entry["item"] in r.items]


def _audit_summary(audit, label: str, url: str | None) -> dict:
    session = audit.session
    return {
        "target": label,
        "transport": session.transport,
        "era": session.era,
        "protocol_version": session.version,
        "server": audit.server_info,
        "stopped": audit.stopped,
        "probes": [r.as_dict() for r in audit.results],
        "tools_not_called": audit.plan.skipped(),
    }
