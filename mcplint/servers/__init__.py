"""Lint the MCP servers a repository's config lists (`servers:`), on their own source lines.

For each server: start it (stdio command or URL), list its tools, prompts and resources
(every page), lint that listing as one document with the manifest rules, and move each
finding onto the source line that defines what it is about (mcplint.source). With
``audit: true`` (or ``check --audit``) the audit's probes run too, and the findings about
the traffic are reported as ``audit:<name>#message-<n>``. A Python server that cannot start
(its dependencies missing in a pre-commit environment, say) is read statically instead.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from mcplint.findings import Finding
from mcplint.interrupts import TerminateAsInterrupt
from mcplint.regex_cache import regex
from mcplint.versions import VERSIONS


_ENTRY_POINTERS = ("/tools/", "/prompts/", "/resources/", "/resourceTemplates/")


@dataclass
class ServersResult:
    findings: list[Finding] = field(default_factory=list)
    files: list = field(default_factory=list)  # engine.FileReport, one per server
    sources: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # printed as warnings
    anchors: dict[str, tuple[str, int]] = field(default_factory=dict)  # pseudo name -> (config file, line)


def lint_servers(specs, plan, *, audit: bool = False, config_source: str | None = None, root: Path | None = None,
                 log=lambda line: None, started: dict | None = None, quiet: bool = False) -> ServersResult:
    """``started``: stdio servers already started (drive.prestart), taken from it as used."""
    from mcplint import progress

    result = ServersResult()
    started = started if started is not None else {}
    with progress.shown(enabled=not quiet):  # a spinner saying which server is waited for, and on what (terminals only)
        for spec in specs:
            if config_source and spec.line:
                shown_config = _shown(config_source, root)
                result.anchors[f"server:{spec.name}"] = result.anchors[f"audit:{spec.name}"] = (shown_config, spec.line)
            progress.scope(f"server {spec.name}")
            progress.stage("starting" if spec.url is None else "connecting")
            try:
                _lint_one(spec, plan, audit or spec.audit, root or Path.cwd(), result, log, started.pop(spec.name, None))
            except RecursionError:
                result.errors.append(f"server {spec.name}: its listing is nested too deeply")
    return result


def _lint_one(spec, plan, audit: bool, root: Path, result: ServersResult, log, process=None) -> None:
    from mcplint.audit import runner
    from mcplint.servers.drive import DriveFailed, drive, list_everything, listing_document

    settings = runner.Settings(timeout=spec.timeout)
    terminated, temp_dir = TerminateAsInterrupt(), None  # a kill while the recording is linted still removes it
    try:
        temp_dir = tempfile.mkdtemp(prefix="mcplint-server-")
        record = Path(temp_dir) / f"{spec.name}.jsonl"
        index = _index(spec, root)  # read while the server boots: waiting would cost as much
        try:
            session = drive(url=spec.url, argv=list(spec.command), label=f"server {spec.name}", env=dict(spec.env),
                            cwd=str(spec.cwd), headers=dict(spec.headers), settings=settings, record_path=record,
                            log=lambda line: log(f"{spec.name}: {line}"),
                            steps=runner.run if audit else list_everything, process=process)
        except DriveFailed as failed:
            if not _offline(spec, plan, index, result, str(failed), failed.server_lines):
                result.errors.append(f"server {spec.name}: {_last_line(str(failed))}{_start_hint(str(failed), spec)}")
            return
        result.notes.extend(f"server {spec.name}: {note}" for note in session.notes)
        noise = getattr(session.session, "noise", None)
        if noise and not audit:  # an audit's traffic rules report them (MCP617); a listing alone would not
            from mcplint.audit.server_text import quoted

            result.notes.append(f"server {spec.name}: wrote {len(noise)} line(s) to its standard output that are not "
                                f"JSON-RPC (the first: {quoted(noise[0])}); a stdio server must write only MCP "
                                "messages there (MCP617 reports it with audit: true)")
        listing = listing_document(session)
        version = session.session.version
        _lint_listing(spec, listing, plan, version, index, result, static=False)
        if not listing.get("tools"):
            _none_listed(spec, index, result)
        if audit:
            _lint_traffic(spec, record, plan, result)
    finally:
        terminated.hold()
        try:
            if temp_dir is not None:
                shutil.rmtree(temp_dir, ignore_errors=True)
        finally:
            terminated.restore()


def _none_listed(spec, index, result: ServersResult) -> None:
    """A server that lists no tools although its source defines some was likely started the wrong
    way (tree-sitter's `python -m package` runs a __main__ that never registers them): "No
    problems found in 1 server (0 tools)" would read as a pass."""
    defined = sorted({name for kind, name in index.definitions() if kind == "tools"})
    if defined:
        shown = ", ".join(defined[:3]) + (f" and {len(defined) - 3} more" if len(defined) > 3 else "")
        result.notes.append(f"server {spec.name} listed no tools, though its source defines {len(defined)} ({shown}); "
                            "check its command in the config: it may start the server without registering them")


def _lint_listing(spec, listing: dict, plan, version: str | None, index, result: ServersResult,
                  static: bool) -> None:
    from mcplint import engine
    from mcplint.document.loader import load_document
    from mcplint.document.manifest import classify
    from mcplint.servers.relocate import Placer, listing_name

    name = listing_name(spec.name)
    text = json.dumps(listing, indent=2, ensure_ascii=False, default=str)
    document = load_document(name, text.encode("utf-8", "surrogatepass"), plan.max_bytes)
    document.path = name
    manifest = classify(document)
    if manifest is None:  # cannot happen for a combined listing; say so rather than crash
        result.errors.append(f"server {spec.name}: its listing could not be read")
        return
    chosen = dataclasses.replace(plan, version=version if version in VERSIONS else plan.version)
    if static:
        from mcplint.servers.offline import static_rules

        chosen = dataclasses.replace(chosen, selected=static_rules(plan.selected))
    findings, used = engine.lint(manifest, chosen)
    # Only the entries are the server's words here: the envelope (resultType, ttlMs, cursors) was
    # rebuilt by mcplint, so what rules say about it is left to the audit's traffic rules.
    findings = [f for f in findings if f.pointer.startswith(_ENTRY_POINTERS)]
    if static:  # what the source does not write literally (a model-typed parameter) is not judged
        from mcplint.servers.offline import unknown_parts

        findings = [f for f in findings if not unknown_parts(listing, f.pointer)]
    from mcplint.servers.phrase import flagged_phrase

    placer = Placer(spec.name, listing, index)
    lines = text.split("\n")
    result.findings.extend(placer.place(f, flagged_phrase(f.span, f.pointer, document, lines)) for f in findings)
    result.sources.update(placer.sources)
    result.files.append(engine.FileReport(name, used, "server", len(listing.get("tools", [])),
                                          engine._manifest_unassessed(chosen, used, manifest)))
    if placer.unplaced:
        result.notes.append(f"server {spec.name}: {placer.unplaced} finding(s) could not be placed in the source "
                            f"(searched {', '.join(index.tree.shown_roots)}); they are reported on {name}")


def _lint_traffic(spec, record: Path, plan, result: ServersResult) -> None:
    """The audit's transcript through the traffic rules; the listing's own findings came above."""
    from mcplint import discovery, engine
    from mcplint.rule import TrafficRule
    from mcplint.servers.relocate import traffic_name, traffic_finding

    linted = engine.run([discovery.Target(str(record), True)], plan)
    traffic = {rule.code for rule in plan.rules if isinstance(rule, TrafficRule)}
    result.findings.extend(traffic_finding(f, spec.name) for f in linted.findings if f.code in traffic)
    result.errors.extend(e.replace(str(record), traffic_name(spec.name, 0).split("#")[0]) for e in linted.errors)
    for report in linted.files:
        report.path = f"audit:{spec.name}"
        report.tools = 0  # counted once, by the listing's report
        result.files.append(report)


def _offline(spec, plan, index, result: ServersResult, why: str, server_lines: int) -> bool:
    """A Python server that could not start is read statically; False when that is not possible."""
    if server_lines or spec.url is not None:
        return False  # it started and then failed: that is the server's fault to report
    from mcplint.servers.offline import static_listing

    listing = static_listing(spec, index)
    if listing is None:
        return False
    result.notes.append(f"server {spec.name} could not be started ({_last_line(why)}); its tools were read from the Python "
                        f"source instead: only names, descriptions, parameters and annotations were checked")
    _lint_listing(spec, listing, plan, None, index, result, static=True)
    return True


def _last_line(why: str) -> str:
    """A start failure as "what happened: what the server's stderr says" (the audit names its
    exception's line: ``mcplint.audit.server_text.stderr_gist``)."""
    head, found, gist = why.partition("; its stderr says: ")
    return f"{head}: {gist}" if found else why


_NEEDS_SETTING = regex(r"environment variable|\benv(?:ironment)?\b|\b[A-Z][A-Z0-9]*_(?:KEY|TOKEN|SECRET|PASSWORD|URL|HOST)\b"
                            r"|\bapi[ _-]?key\b|\bcredentials?\b", re.I)
_NEEDS_MODULE = regex(r"ModuleNotFoundError|No module named|Cannot find (?:module|package)")


def _start_hint(why: str, spec) -> str:
    """What to change in the config when a server's own words say why it did not start: a
    missing setting (a newcomer's first `mcplint check` of a server that wants an API key) or
    a missing dependency."""
    if spec.url is not None or "; its stderr says: " not in why:
        return ""
    gist = why.partition("; its stderr says: ")[2]
    if _NEEDS_MODULE.search(gist):
        return (" (the command runs with the interpreter on PATH: run mcplint where the server's dependencies "
                "are installed, or name that interpreter in the server's command)")
    if _NEEDS_SETTING.search(gist):
        return " (give it its settings under env: in its entry of the config; to list its tools a dummy value usually does)"
    return ""


def _index(spec, root: Path):
    from mcplint.servers.built import build_output
    from mcplint.source import SourceIndex

    return SourceIndex.build(list(spec.source), root, build_output(spec.command, spec.cwd, spec.source))


def _shown(path: str, root: Path | None) -> str:
    try:
        return Path(path).resolve().relative_to((root or Path.cwd()).resolve()).as_posix()
    except ValueError:
        return path
