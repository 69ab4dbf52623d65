"""Load documents, run the applicable rules, turn Violations into located Findings."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from mcplint import registry, suppressions, versions
from mcplint.config import Config, rule_options
from mcplint.globs import glob_to_regex
from mcplint.discovery import STDIN, Target, display_path
from mcplint.document.loader import Document, load_document, read_stdin, spool
from mcplint.document.manifest import EXPECTED, Manifest, classify, describe
from mcplint.errors import InputError, MCPLintError
from mcplint.fingerprints import fingerprint
from mcplint.per_file_ignores import ignored
from mcplint.early_cap import capped_early, capped_in_data
from mcplint.findings import (MAX_PER_RULE, MAX_REPORTED, Finding, Related, Severity, capped, excerpt,
                              within_report_limit)
from mcplint.inferred_version import VersionWatch, infer_version, lenient
from mcplint.rule import MANIFEST, Rule, RuleContext, ToolRule


@dataclass
class Plan:
    """Everything a run needs, resolved once from config and command-line flags."""

    selected: list["registry.RuleEntry"]  # the chosen rules, sorted by code; modules imported as rules run
    severity: dict[str, Severity]
    options: dict[str, object]
    version: str | None  # forced protocol version, or None to infer per document
    per_file_ignores: list[tuple[object, str, set[str]]]  # (glob regex, pointer prefix, codes)
    root: Path
    max_bytes: int
    used_ignores: set[int] = field(default_factory=set)  # per-file-ignores entries that silenced a finding
    lock: object = None  # a mcplint.pinning.Lock from `check --lock`, handed to rules in RuleContext
    # Rule objects, made on first use: by kind (None: all), and by code.
    _made: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _objects: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    # path -> the per-file-ignores entries whose glob matches it (mcplint.per_file_ignores)
    ignores_by_path: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def rules(self) -> list[Rule]:
        """Every selected rule (each module imported)."""
        return self.rules_for(None)

    @property
    def codes(self) -> set[str]:
        return {entry.code for entry in self.selected}

    def rules_for(self, kind: str | None) -> list[Rule]:
        """The selected rules that apply to ``kind`` (a manifest, a capture), in code order:
        only their modules are imported."""
        made = self._made.get(kind)
        if made is None:
            made = self._made[kind] = [self._rule(e) for e in self.selected if kind is None or kind in e.applies_to]
        return made

    def rule(self, code: str) -> Rule | None:
        """The selected rule with this code, or None."""
        entry = next((e for e in self.selected if e.code == code), None)
        return None if entry is None else self._rule(entry)

    def _rule(self, entry) -> Rule:
        made = self._objects.get(entry.code)
        if made is None:
            made = self._objects[entry.code] = entry.load()()
        return made

    @classmethod
    def build(cls, config: Config, select=None, ignore=(), version: str | None = None) -> "Plan":
        version = version or config.protocol_version
        if version is not None and version not in versions.VERSIONS:
            raise MCPLintError(f"protocol version {version!r} is not one of {', '.join(versions.VERSIONS)}")
        where = config.source or "config"
        for key, tokens in (("select", config.select or ()), ("extend-select", config.extend_select),
                            ("ignore", config.ignore)):
            registry.check_selectors(tokens, f"{where}: {key}")  # named here, not as if a flag were wrong
        chosen = registry.select(
            list(select) if select else config.select,
            [*config.ignore, *ignore],
            [] if select else config.extend_select,
        )
        severity: dict[str, Severity] = {}
        for token, level in config.severity.items():
            for rule in _config_rules(token, where, "severity"):
                if level == "off":
                    chosen = [r for r in chosen if r.code != rule.code]
                else:
                    severity[rule.code] = Severity(level)
        options = registry.RuleOptionsTable(chosen)
        for token, raw in config.options.items():
            for rule in _config_rules(token, where, "options"):
                options[rule.code] = rule_options(rule.load(), raw, config.source)
        ignores = []
        for pattern, tokens in config.per_file_ignores.items():
            glob, _, pointer = pattern.partition("#")
            codes = {r.code for t in tokens for r in _config_rules(t, where, f"per-file-ignores.{pattern}")}
            ignores.append((glob_to_regex(glob), pointer, codes))
        return cls(
            selected=chosen,
            severity=severity,
            options=options,
            version=version,
            per_file_ignores=ignores,
            root=config.root,
            max_bytes=config.max_file_size_mb * 1024 * 1024,
        )


def _config_rules(token: str, where: str, key: str) -> list["registry.RuleEntry"]:
    try:
        return registry.find(token)
    except MCPLintError as err:  # "unknown rule 'X'; did you mean Y? ..."
        raise MCPLintError(f"{where}: {key}: {err}") from None


@dataclass
class FileReport:
    path: str
    version: str
    shape: str  # manifest shapes (result, response, array, tool), or "transcript" / "har"
    tools: int
    unassessed: dict[int, str] = field(default_factory=dict)  # checklist item -> what evidence was missing
    notes: tuple[str, ...] = ()  # warnings about the file (a capture no request of which was answered)

    @property
    def is_capture(self) -> bool:
        return self.shape in ("transcript", "har")


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: list[FileReport] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    errors: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # path -> text, for files with findings


def run(targets: list[Target], plan: Plan) -> Result:
    result = Result()
    for target in targets:
        shown = display_path(target.path)
        if target.path == STDIN:
            try:
                kind, raw = _read_stdin(plan)
            except OSError as err:
                result.errors.append(f"{shown}: cannot read: {err.strerror or err}")
                continue
            except InputError as err:  # an endless transcript: past the spool bound
                result.errors.append(str(err))
                continue
        else:
            kind, raw = _capture_kind(target), None
        if kind is not None:
            _run_capture(target, shown, kind, plan, result, raw)
            continue
        try:
            manifest = _load_untracked(target, shown, plan, raw)
        except InputError as err:
            if target.explicit or _looks_like_manifest(target.path):
                result.errors.append(str(err))
            else:
                result.skipped.append((shown, str(err).split(": ", 1)[-1]))
            continue
        except RecursionError:
            result.errors.append(f"{shown}: document is nested too deeply")
            continue
        if manifest is None:
            result.skipped.append((shown, "not an MCP tool manifest or prompt/resource listing"))
            continue
        try:
            with _collector_paused():
                findings, version = lint(manifest, plan)
        except RecursionError:
            result.errors.append(f"{shown}: document is nested too deeply")
            continue
        result.findings.extend(findings)
        if len(result.findings) > 2 * MAX_REPORTED:
            result.findings = within_report_limit(result.findings)
        if findings:
            result.sources[shown] = manifest.document.text
        result.files.append(FileReport(
            shown, version, manifest.shape, len(manifest.tools()),
            _manifest_unassessed(plan, version, manifest),
        ))
    result.findings = within_report_limit(result.findings)
    return result


def _capture_kind(target: Target) -> str | None:
    from mcplint.capture import capture_kind

    return capture_kind(target.path)


STDIN_HEAD = 65536  # what is read of standard input to tell what it holds
STDIN_CHUNK = 1 << 20


def _read_stdin(plan: Plan):
    """What standard input holds (a capture kind, or None for a manifest) and what to lint.
    A transcript is spooled to a temporary file chunk by chunk and streamed like any file;
    a HAR file or a manifest is read whole, at most max-file-size-mb (and one byte more, to
    say it is over the limit)."""
    from mcplint.capture.lint import sniff_kind

    head = read_stdin(STDIN_HEAD)
    kind = sniff_kind(head)
    if kind != "transcript":
        return kind, head + read_stdin(max(0, plan.max_bytes + 1 - len(head)))
    return kind, spool(read_stdin, head, STDIN_CHUNK)


def _run_capture(target: Target, shown: str, kind: str, plan: Plan, result: Result, raw=None) -> None:
    """Lint a JSONL transcript or HAR file (streamed: see mcplint.capture)."""
    from mcplint.capture.lint import lint_capture

    try:
        with _collector_paused():
            linted = lint_capture(target.path, shown, plan, raw, kind)
    except InputError as err:
        if target.explicit:
            result.errors.append(str(err))
        else:
            result.skipped.append((shown, str(err).split(": ", 1)[-1]))
        return
    except RecursionError:
        result.errors.append(f"{shown}: document is nested too deeply")
        return
    findings = linted.findings  # per-file-ignores applied already, before the per-rule cap
    result.findings.extend(findings)
    if findings:
        result.sources[shown] = linted.lines
    result.files.append(FileReport(shown, linted.version, linted.kind, linted.tools, linted.unassessed, linted.notes))


def _manifest_unassessed(plan: Plan, version: str, manifest: Manifest) -> dict[int, str]:
    """Why each checklist item is not assessable from this manifest: the protocol version lacks its
    subject, no selected rule checks it, no listed tool has what it judges (no tool at all, no title,
    no outputSchema...: checklist.listing_gaps), or only traffic can show it (calls, errors, outputs)."""
    from mcplint import checklist

    selected = {item for rule in plan.selected for item in rule.checklist}
    covered = {item for rule in plan.selected if MANIFEST in rule.applies_to for item in rule.checklist}
    others = bool(manifest.prompts() or manifest.resources() or manifest.resource_templates())  # texts: 3, 19
    tools = manifest.census().objects  # (the tool objects, listed already)
    gaps = checklist.listing_gaps(tools, version, "the manifest lists no tools", others)
    unassessed: dict[int, str] = {}
    for item in checklist.ITEMS:
        if why := checklist.missing_feature(item, version):
            unassessed[item] = why
        elif item not in selected or (item not in checklist.TRAFFIC_ITEMS and item not in covered):
            unassessed[item] = checklist.NO_RULE
        elif item in gaps and (item in checklist.LISTING_ITEMS or item in checklist.STRUCTURED_ITEMS):
            unassessed[item] = gaps[item]
        elif item == 19:
            unassessed[item] = checklist.OUTPUTS_HINT
        elif item in checklist.TRAFFIC_ITEMS:
            unassessed[item] = checklist.NOT_ASSESSABLE_HINT
    return unassessed


@contextmanager
def _collector_paused():
    """The cyclic garbage collector off while a file is loaded or linted: a parsed file can be
    millions of objects and the rules make hundreds of thousands of short-lived lists and tuples,
    without a single cycle; the collections they set off cost a third of a large manifest's run.
    Refcounting still frees them."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _load_untracked(target: Target, shown: str, plan: Plan, raw: bytes | None = None) -> Manifest | None:
    """Load with the collector paused; the document is then frozen out of its reach."""
    with _collector_paused():
        try:
            return _load(target, shown, plan, raw)
        finally:
            gc.freeze()


def _load(target: Target, shown: str, plan: Plan, raw: bytes | None = None) -> Manifest | None:
    document = load_document(target.path if raw is None else shown, raw, plan.max_bytes)
    document.path = shown
    manifest = classify(document)
    if manifest is None and target.explicit:
        raise InputError(shown, f"not an MCP tool manifest or prompt/resource listing: {EXPECTED}; "
                                f"found {describe(document.data)}")
    return manifest


def _looks_like_manifest(path: str) -> bool:
    """A walked file that failed to load is an error only if it seems meant as a manifest."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    return b"inputSchema" in head or b'"tools"' in head or b"tools:" in head


def lint(manifest: Manifest, plan: Plan) -> tuple[list[Finding], str]:
    version = plan.version or infer_version(manifest)
    raw = violations(manifest, plan, version)
    if not raw and not suppressions.present(manifest.document):
        return [], version
    document = manifest.document
    if capped_in_data(raw, document):
        return _capped_early(raw, manifest, plan), version
    document.source_map.prepare(
        [v.pointer for _, v in raw] + [p for _, v in raw for p, _ in v.related]
    )
    # Fingerprints and tool names only for the findings a report keeps: past the cap of
    # findings per rule, thousands of them would be made and thrown away.
    findings = [_finding(rule, v, manifest, plan) for rule, v in raw]
    pending = {id(f): v for f, (_, v) in zip(findings, raw)}
    findings = suppressions.apply(findings, manifest, plan, version)  # YAML comments, MCP001
    findings = capped([f for f in findings if not _ignored(f, document, plan)])
    return [_identified(f, pending[id(f)], manifest) if id(f) in pending else f for f in findings], version


def violations(manifest: Manifest, plan: Plan, version: str) -> list[tuple[Rule, object]]:
    """What every applicable rule found, as (rule, Violation), leniently re-checked when the
    version was inferred."""
    path = manifest.path
    raw: list[tuple[Rule, object]] = []
    for rule in plan.rules_for(manifest.kind):
        if version not in rule.versions:
            continue
        watched = plan.version is None  # an inferred version: findings may be re-checked leniently
        ctx = (VersionWatch if watched else RuleContext)(version, plan.options[rule.code], path, manifest, plan.lock)
        found = [v.bounded() for v in _violations(rule, manifest, ctx)]
        if watched and found:
            found = lenient(rule, found, manifest, plan, version, ctx.read)
        raw.extend((rule, v) for v in found)
    return raw


def _capped_early(raw: list, manifest: Manifest, plan: Plan, limit: int = MAX_PER_RULE) -> list[Finding]:
    """``early_cap.capped_early`` with this module's findings."""
    return capped_early(raw, manifest, plan, _finding, limit)


def _violations(rule: Rule, manifest: Manifest, ctx: RuleContext):
    """``rule.check``; for a ToolRule, its check_tool called here in one loop over the tools
    it may find something in (``candidates``) instead of through a generator per rule."""
    if type(rule).check is not ToolRule.check:
        return rule.check(manifest, ctx)
    check_tool = rule.check_tool
    return [v for ptr, tool in rule.candidates(manifest, ctx) for v in check_tool(ptr, tool, ctx)]


def _identified(finding: Finding, violation, manifest: Manifest) -> Finding:
    """The finding with the tool it names and its fingerprint."""
    return replace(finding, tool=_shown_tool(manifest.tool_name_at(violation.pointer)),
                   fingerprint=fingerprint(finding.code, manifest, violation.pointer))


def _finding(rule: Rule, violation, manifest: Manifest, plan: Plan, identified: bool = False) -> Finding:
    """The finding without its tool and fingerprint (``_identified`` adds them), or with
    them when ``identified`` (made at once: ``replace`` costs as much again)."""
    source_map = manifest.document.source_map
    span, _ = source_map.span(violation.pointer, key=violation.at_key, within=violation.within)
    pointer = str(violation.pointer)
    related = tuple(
        Related(message, str(ptr), source_map.span(ptr)[0]) for ptr, message in violation.related
    )
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=plan.severity.get(rule.code, violation.severity or rule.severity),
        message=violation.message,
        path=manifest.path,
        span=span,
        pointer=pointer,
        checklist=tuple(rule.checklist),
        tool=_shown_tool(manifest.tool_name_at(violation.pointer)) if identified else None,
        fingerprint=fingerprint(rule.code, manifest, violation.pointer) if identified else "",
        related=related,
    )


def _shown_tool(name: str | None) -> str | None:
    """The tool a finding names, as reports show it (the fingerprint keeps the whole name)."""
    return excerpt(name) if name is not None else None


def _ignored(finding: Finding, document: Document, plan: Plan) -> bool:
    return ignored(finding.code, finding.pointer, document.path, plan)
