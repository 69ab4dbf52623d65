"""`mcplint check`: config -> plan -> engine -> reporter -> exit code."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from mcplint import __version__, ci, config as config_module, discovery, engine, registry, reporters
from mcplint import baseline as baseline_module, parallel, suppressions
from mcplint.commands.output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, report_view, split_values, want_color, write_report
from mcplint.errors import MCPLintError
from mcplint.findings import Severity, within_report_limit
from mcplint.summary import read_failures, summarize
from mcplint.text_safety import printable
from mcplint.versions import VERSIONS



def _input_names(targets) -> dict[str, str]:
    """How an error may name each input (as given, or as shown) -> the path reports show."""
    names = {}
    for target in targets:
        shown = discovery.display_path(target.path)
        names[target.path] = names[shown] = shown
    return names


def _wants_servers(paths, servers, servers_only: bool, audit: bool, specs, config_file) -> bool:
    """Configured servers run with no paths (or when asked); asking with none configured is an error."""
    wanted = servers_only or audit or (servers if servers is not None else not paths)
    if wanted and not specs and (servers or servers_only or audit):
        where = str(config_file) if config_file else "no config file was found"
        raise MCPLintError(f"no servers configured ({where}): list them under servers: in .mcplint.yaml "
                           f"(`mcplint init` writes an entry)")
    return wanted and bool(specs)


def _add_servers(result, cfg, plan, audit: bool, verbose: bool, started: dict, quiet: bool = False) -> dict:
    """Lint every configured server into ``result``; the config entries reports anchor to."""
    from mcplint.servers import lint_servers

    log = (lambda line: print(printable(f"mcplint: server {line}"), file=sys.stderr)) if verbose else (lambda line: None)
    found = lint_servers(cfg.servers, plan, audit=audit, config_source=cfg.source, root=cfg.root, log=log, quiet=quiet,
                         started=started)
    result.findings = within_report_limit([*result.findings, *found.findings])
    result.files.extend(found.files)
    result.sources.update(found.sources)
    result.errors.extend(found.errors)
    for note in found.notes:
        print(printable(f"mcplint: warning: {note}"), file=sys.stderr)
    return found.anchors


def run_check_command(*, paths, format, output, select, ignore, protocol_version, config, fail_on, verbose, quiet,
                      statistics, baseline, write_baseline, sarif_output, skip_non_manifests, lock, servers,
                      servers_only, audit) -> int:
    """`mcplint check` from its command-line parameters, as typer (mcplint/cli.py) or
    mcplint.entry's reader of the everyday line hand them over; the exit code."""
    return run_check(
        paths=paths, fmt=format, output=output, select=split_values(select), ignore=split_values(ignore),
        protocol_version=protocol_version, config_path=config, fail_on=fail_on, verbose=verbose,
        view=report_view(format, quiet, statistics), baseline=baseline, write_baseline=write_baseline,
        sarif_output=sarif_output, skip_non_manifests=skip_non_manifests, lock=lock, servers=servers,
        servers_only=servers_only, audit=audit,
    )


def run_check(*, paths, fmt, output, select, ignore, protocol_version, config_path, fail_on, verbose,
              view="full", baseline=None, write_baseline=None,
              sarif_output=None, skip_non_manifests=False, lock=None, servers=None, servers_only=False,
              audit=False) -> int:
    if protocol_version is not None and protocol_version not in VERSIONS:
        raise MCPLintError(f"--protocol-version {protocol_version!r} is not one of {', '.join(VERSIONS)}")
    if config_path is not None and not Path(config_path).is_file():
        raise MCPLintError(f"{config_path}: config file not found")
    config_file = Path(config_path) if config_path else config_module.discover()
    specs = config_module.load_servers(config_file)
    with_servers = _wants_servers(paths, servers, servers_only, audit, specs, config_file)
    started = _prestart(specs) if with_servers else {}
    try:
        cfg = config_module.load(config_file)
        registry.check_selectors(select or (), "--select")
        registry.check_selectors(ignore or (), "--ignore")
        plan = engine.Plan.build(cfg, select or None, ignore, protocol_version)
        known = baseline_module.load_for_check(baseline, write_baseline)  # a bad file fails before linting
        if lock is not None:  # tool pinning: MCP501-MCP503 compare each manifest with the lock
            from mcplint import pinning

            plan.lock = pinning.load_for_check(lock, plan)
        return _check(paths, cfg, plan, known, fmt, output, fail_on, verbose, baseline, write_baseline, sarif_output,
                      skip_non_manifests, servers_only, audit, with_servers, started, view)
    finally:
        if started:
            from mcplint.servers.drive import close_unused

            close_unused(started)


def _prestart(specs) -> dict:
    """The configured stdio servers start now and boot while the rules load and files are linted."""
    from mcplint.servers.drive import prestart

    return prestart(specs)


def _check(paths, cfg, plan, known, fmt, output, fail_on, verbose, baseline, write_baseline, sarif_output,
           skip_non_manifests, servers_only, audit, with_servers, started, view="full") -> int:
    targets = discovery.collect([] if servers_only else (paths or ["."]), cfg)
    walk_skipped = targets.skipped  # FIFOs, symlink loops, unreadable folders met while walking
    if skip_non_manifests:  # pre-commit names every JSON/YAML file: skip non-manifests, not fail
        targets = ci.as_walked(targets, cfg)
    result = parallel.run(targets, plan, verbose)  # engine.run, in a process pool when there are many files
    result.skipped[:0] = walk_skipped
    errors_before = len(result.errors)
    anchors = _add_servers(result, cfg, plan, audit, verbose, started, view == "quiet") if with_servers else {}
    server_errors = len(result.errors) - errors_before  # servers that could not be started or listed
    if plan.lock is not None:
        from mcplint import pinning

        pinning.report_vanished(plan.lock, result.files)

    if verbose:
        for path, why in result.skipped:
            print(printable(f"mcplint: skipped {path}: {why}"), file=sys.stderr)
        captures = sum(1 for f in result.files if f.is_capture)
        print(f"mcplint: {len(result.files) - captures} manifest(s) and {captures} capture(s) linted, "
              f"{len(result.skipped)} file(s) skipped", file=sys.stderr)
    for message in result.errors:
        print(printable(f"mcplint: error: {message}"), file=sys.stderr)
    if not result.files and not result.errors and not skip_non_manifests:
        hint = "" if verbose or not result.skipped else f" ({len(result.skipped)} file(s) skipped; -v says why)"
        where = ", ".join(paths or ["."])
        servers_hint = "" if paths else "; to lint a server from its source, list it under servers: in .mcplint.yaml (`mcplint init` writes one)"
        raise MCPLintError(f"no MCP tool manifests or captures found in {where}{hint}{servers_hint}")

    for report in result.files:
        for note in report.notes:
            print(printable(f"mcplint: warning: {report.path}: {note}"), file=sys.stderr)
    for warning in suppressions.unused_config_ignores(cfg, plan, result.files):
        print(printable(f"mcplint: warning: {warning}"), file=sys.stderr)
    if write_baseline is not None:
        return baseline_module.write(result, write_baseline)
    outcome = baseline_module.apply(result, known, baseline) if known is not None else None

    selected = tuple(plan.selected)  # registry entries: SARIF alone imports their modules
    summary = summarize(result.findings, selected, result.files, result.skipped, result.errors, server_errors)
    if outcome is not None:
        summary["baseline"] = outcome.as_dict()
    to_terminal = output is None and sys.stdout.isatty()
    ctx = reporters.ReportContext(
        rules=selected,
        summary=summary,
        tool_version=__version__,
        files=tuple(result.files),
        color=want_color(to_terminal) if fmt == "rich" else False,
        width=shutil.get_terminal_size((100, 24)).columns if to_terminal else 100,
        sources=result.sources,
        levels=plan.severity,
        # Each report lists these too; with nothing read it has no checklist (summarize) and
        # says so instead of looking like a clean run. The exit code is 2 either way.
        failures=tuple(read_failures(result.errors, _input_names(targets))) if result.errors else (),
        extra={"anchors": anchors, "view": view} if anchors else {"view": view},
    )
    text = reporters.render(fmt, result.findings, ctx)
    write_report(text, output)
    if sarif_output is not None:
        write_report(text if fmt == "sarif" else reporters.render("sarif", result.findings, ctx), sarif_output)
    if summary_file := ci.step_summary_file(fmt):
        ci.append_step_summary(result.findings, ctx, summary_file)

    if result.errors:
        return EXIT_ERROR
    threshold = fail_on or cfg.fail_on
    if threshold == "never":
        return EXIT_OK
    rank = Severity(threshold).rank
    return EXIT_FINDINGS if any(f.severity.rank >= rank for f in result.findings) else EXIT_OK
