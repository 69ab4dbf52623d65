"""Lint a capture: stream its records through the session model and the traffic rules,
lint every tools/list, prompts/list, resources/list and resources/templates/list result
with the manifest rules, then locate what was found."""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
from dataclasses import dataclass

from mcplint.capture import CAPTURE_SUFFIXES, capture_kind, content, har, jsonl, split  # noqa: F401 (re-exported)
from mcplint.capture import listing_budget
from mcplint.capture.dispatch import Dispatch
from mcplint.capture.records import CLIENT, Record
from mcplint.capture.session import (ABSORBED, NOTIFICATION, REQUEST, RESPONSE, Exchange, Message, Session,
                                     VersionDetector, kind_of)
from mcplint.capture.evidence import unassessed
from mcplint.capture.kept import KeptFindings
from mcplint.document.listing import MEMBERS as LIST_MEMBERS
from mcplint.document.loader import Document, load_document, os_error, spool, wait_for_data
from mcplint.document.manifest import Manifest
from mcplint.document.pointer import Pointer
from mcplint.errors import InputError
from mcplint.findings import Finding, Related, excerpt, left_out_note
from mcplint.rule import RuleContext, Violation

DETECTION_WINDOW = 2000  # records buffered while looking for the negotiated version
DETECTION_BYTES = 2 << 20  # past this many bytes of them, records wait as line numbers (parsed, 16 MiB held 320 MB)


@dataclass
class Linted:
    findings: list[Finding]
    version: str
    kind: str  # "transcript" | "har"
    tools: int
    unassessed: dict[int, str]
    lines: object  # what code frames show: the text, or the few lines findings need
    notes: tuple[str, ...] = ()  # said as warnings: what makes the report say less than it seems


def sniff_kind(raw: bytes) -> str | None:
    """What standard input holds: a HAR file, a JSONL transcript, or (None) a manifest."""
    head = raw[:65536].lstrip()
    if head.startswith(b"{") and b'"log"' in head[:400] and b'"entries"' in head:
        return "har"
    first, _, rest = head.partition(b"\n")
    if rest.strip() and jsonl.looks_like_transcript(head):
        try:
            json.loads(first)
        except ValueError:
            return None
        return "transcript"
    return None


def lint_capture(path: str, shown: str, plan, raw=None, kind: str | None = None) -> Linted:
    """Lint the transcript or HAR file at ``path`` (``raw`` given for stdin: its bytes, or
    for a transcript a binary file it was spooled to)."""
    kind = kind or capture_kind(path) or "transcript"
    if kind == "har":
        document = load_document(path if raw is None else shown, raw, plan.max_bytes, max_values=None)
        document.path = shown
        source = har.HarSource(document)
        linter = _Linter(plan, shown, source)
        linted = linter.run(har.records(document, source.embedded), kind)
        linted.lines = document.text
        return linted
    with _open(path, raw, shown) as handle:
        head = handle.read(65536)
        if not head.strip():
            raise InputError(shown, "empty file, expected a JSONL transcript")
        if not jsonl.looks_like_transcript(head) and b"\x00" not in head:
            raise InputError(shown, "not an MCP transcript: no line holds a JSON-RPC message or a transcript record")
        if b"\x00" in head:
            raise InputError(shown, "binary file (contains NUL bytes), expected a JSONL transcript")
        handle.seek(0)
        # Only a regular file is split: its child opens the path again (a named pipe was spooled
        # here and cannot be read twice).
        shards = split.shards(plan, os.fstat(handle.fileno()).st_size) if raw is None and _regular(path) else None
        child = split.Child(lambda: _shard_found(path, shown, plan, shards[1])) if shards else None
        try:
            source = jsonl.JsonlSource(handle, plan.max_bytes)
            linter = _Linter(plan, shown, source, reload=source.record, shard=shards[0] if shards else None)
            linted = linter.run(source.records(), kind, child.result if child else None)
        finally:
            if child is not None:
                child.stop()
        linted.lines = source.lines()
        return linted


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _shard_found(path: str, shown: str, plan, codes: frozenset[str]) -> tuple:
    """What the rules of ``codes`` find in the transcript at ``path`` (run by split's child),
    in a picklable form: (kept, left out, checklist items assessed, per-file-ignores used),
    rules named by their codes."""
    with _open(path, None, shown) as handle:
        source = jsonl.JsonlSource(handle, plan.max_bytes)
        linter = _Linter(plan, shown, source, reload=source.record, shard=codes)
        linter.lint(source.records())
        kept, left_out = linter.selected()
        return ([(rule.code, v, tool) for rule, v, tool in kept],
                {code: ((rule.code, v, tool), count) for code, ((rule, v, tool), count) in left_out.items()},
                set(linter.session.assessed), set(plan.used_ignores))


def _open(path: str, raw, shown: str):
    if hasattr(raw, "read"):
        return raw
    if raw is not None:
        return io.BytesIO(raw)
    try:  # O_NONBLOCK: opening a named pipe nobody writes to would otherwise wait forever
        handle = open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb")
    except OSError as err:
        raise InputError(shown, "no such file or directory" if isinstance(err, FileNotFoundError)
                         else f"cannot read: {os_error(err)}") from None
    except ValueError:  # a NUL byte in the path
        raise InputError(shown, "cannot read: the path holds a NUL byte") from None
    mode = os.fstat(handle.fileno()).st_mode
    if stat.S_ISDIR(mode):
        handle.close()
        raise InputError(shown, "is a directory")
    if stat.S_ISREG(mode):
        os.set_blocking(handle.fileno(), True)
        return handle
    with handle:  # a named pipe (`<(...)`) or a device: the streamer seeks back, so spool it
        wait_for_data(handle.fileno(), shown)
        os.set_blocking(handle.fileno(), True)
        head = handle.read(65536)
        if b"\x00" in head:  # /dev/zero, /dev/urandom: refuse before spooling endless bytes
            raise InputError(shown, "binary file (contains NUL bytes), expected a JSONL transcript")
        return spool(handle.read, head, shown=shown)


class _Linter(Dispatch):
    def __init__(self, plan, path: str, source, reload=None, shard=None) -> None:
        self.plan, self.path, self.source = plan, path, source
        self.shard = shard  # the codes of the rules this process runs (None: all; see split)
        self.reload = reload  # line index -> its Record parsed again (JSONL), or None
        self.found = KeptFindings(path, plan)  # (rule, violation, tool name or None)
        self._hooks: dict[str, dict[str, list]] = {}
        self._manifest_rules: dict[str, list] = {}
        self._dispatch: dict[tuple, list] = {}
        self._records: dict[tuple, list] = {}  # record_hooks' tables, apart: their keys are the hottest
        self._list_pages: set[str] = set()
        self.session: Session | None = None

    # -- the run ---------------------------------------------------------------------------

    def run(self, records, kind: str, other=None) -> Linted:
        """Lint the records; ``other()``, when given, returns what split's child found."""
        self.lint(records)
        session = self.session
        kept, left_out = self.selected()
        if other is not None:
            more_kept, more_left_out, assessed, used = other()
            rules = {rule.code: rule for rule in self.plan.rules}
            kept.extend((rules[code], v, tool) for code, v, tool in more_kept)
            left_out.update((code, ((rules[code], v, tool), count))
                            for code, ((_, v, tool), count) in more_left_out.items())
            session.assessed |= assessed
            self.plan.used_ignores |= used
        findings = self._located(kept, left_out)
        answered = any(count for key, count in session.seen.items() if key != "http" and not key.endswith("-result"))
        notes = () if answered else ("no request in the capture was answered, so nothing the server does could be "
                                     f"judged (protocol version {session.version} was not negotiated)",)
        if session.listing_cut is not None:
            notes += (session.listing_cut,)
        return Linted(findings, session.version, kind, len(session.tools), unassessed(session, self.plan), None,
                      notes)

    def lint(self, records) -> None:
        """Every record through the session and the rules, then the session hooks."""
        detector = VersionDetector()
        buffer: list[Record | int] = []
        buffered = 0  # bytes of the records buffered whole
        for record in records:
            if self.session is None:
                buffered += record.size
                # Past DETECTION_BYTES a record waits as its line number, read again later.
                buffer.append(record.index if buffered > DETECTION_BYTES and self.reload else record)
                found = detector.feed(record)
                if found or len(buffer) >= DETECTION_WINDOW:
                    self._start(found or detector.fallback(self.plan.version), buffer)
                    buffer = []
                continue
            self._record(record)
        if self.session is None:
            self._start(detector.fallback(self.plan.version), buffer)
        session = self.session
        for rule, ctx, hook in self.hooks(session.version)["check_session"]:
            self.found.extend((rule, v.bounded(), None) for v in hook(session, ctx))

    def _start(self, version: str, buffer: list) -> None:
        self.session = Session(version, reload=self.reload)
        for record in buffer:
            if isinstance(record, int):
                record = self.reload(record)
                if record is None:
                    continue
            self._record(record)

    def _record(self, record: Record) -> None:
        session = self.session
        if record.http and session.transport != "http":
            session.transport = "http"
            session.seen["http"] += 1
        # `for v in hook(...)`, not list(hook(...)): a hook that finds nothing costs half as much.
        add = self.found.append
        for rule, ctx, hook in self.record_hooks(session.version, record):
            for v in hook(record, session, ctx):
                add((rule, v.bounded(), None))
        if record.sender == CLIENT and record.http:
            session.last_request = record
        data = record.message
        if data is None:
            if getattr(record, "exited", None) is not None:
                session.server_exited()
            return
        sender = record.sender
        # The common record (one message, its sender known) without session.messages' list.
        messages = (Message(record, data, record.base, sender, kind_of(data)),) \
            if sender is not None and type(data) is dict else session.messages(record)
        for message in messages:
            for rule, ctx, hook in self.message_hooks(session.version, message):
                for v in hook(message, session, ctx):
                    add((rule, v.bounded(), message.params.get("name") if message.method == "tools/call" else None))
            if message.kind == REQUEST:
                session.open(message)
            elif message.kind == NOTIFICATION:
                if message.method == "notifications/initialized" and message.sender == CLIENT:
                    session.initialized = True
            elif message.kind == RESPONSE:
                exchange = session.answer(message)
                if exchange is not None:
                    self._exchange(exchange)

    def _exchange(self, exchange: Exchange) -> None:
        session = self.session
        member = LIST_MEMBERS.get(exchange.method)
        page = self._list_page(exchange, member) if member is not None and exchange.response.result is not None \
            else None
        if exchange.method in ABSORBED and page is not False:  # (most exchanges are calls: nothing to absorb)
            session.absorb(exchange)  # a page past the listing budget keeps none of its tools
        session.seen[exchange.method or "?"] += 1
        response = exchange.response
        result = response.result
        failed = response.error is not None or (result is not None and result.get("isError") is True)
        add = self.found.append
        tool = exchange.tool_name if exchange.method == "tools/call" else None
        for rule, ctx, hook in self.exchange_hooks(session.version, exchange, failed):
            if rule is None:  # a group of rules (dispatch.GROUPS)
                for rule, v in hook.check(exchange, session):
                    add((rule, v.bounded(), tool))
                continue
            for v in hook(exchange, session, ctx):
                add((rule, v.bounded(), tool))
        if isinstance(page, str):
            self._lint_list_page(exchange, member, page)

    def _list_page(self, exchange: Exchange, member: str) -> str | bool:
        """A list page's entries as JSON text when it is new and within the listing budget (see
        listing_budget); True for a page seen before (kept, not linted again); False past the budget."""
        self.session.seen[f"{exchange.method}-result"] += 1
        if self.session.listing_cut is not None:
            return False
        entries = exchange.response.result.get(member)  # MCP248 reports a prompts/resources list that is missing
        # The page's entries as JSON with their characters decoded (the escapes of a HAR body or a
        # JSONL line are gone once parsed): the source text the text rules' pre-checks read.
        text = json.dumps(entries, sort_keys=True, default=str, ensure_ascii=False)
        digest = hashlib.sha256(f"{member}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        if digest in self._list_pages:
            return True
        if not listing_budget.admit(self.session, exchange.method, entries):
            return False
        self._list_pages.add(digest)
        return text

    def _lint_list_page(self, exchange: Exchange, member: str, text: str) -> None:
        """Every manifest rule on a new tools/list, prompts/list, resources/list or
        resources/templates/list page (its entries as JSON ``text``)."""
        response = exchange.response
        if member == "tools" and "tools" not in response.result:
            return  # no tools to lint (and the tool rules expect the array's member to be there)
        document = Document(self.path, text, response.data, "json", None)
        tools_pointer = Pointer(("result", "tools"))
        if member == "tools":
            manifest = Manifest(document, "response", tools_pointer)
        else:  # the tool rules see no tools here; the prompt and resource rules see this page
            manifest = Manifest(document, "response", tools_pointer, {member: Pointer(("result", member))})
        version = self.session.version
        for rule in self.manifest_rules(version):
            ctx = RuleContext(version, self.plan.options[rule.code], self.path, manifest, self.plan.lock)
            for violation in rule.check(manifest, ctx):
                violation = violation.bounded()
                self.found.append_lazily(
                    rule, Pointer((*response.ptr, *violation.pointer)), violation.message,
                    lambda v=violation: (rule, _moved(v, response.ptr), manifest.tool_name_at(v.pointer)))

    # -- results ---------------------------------------------------------------------------

    def selected(self) -> tuple[list, dict]:
        """The findings to report (duplicates and per-file-ignores dropped, each rule's capped:
        capped before they are located, as locating reads their lines again) and, per rule over
        its cap, its first left out and how many were."""
        return self.found.selected()

    def _located(self, kept: list, left_out: dict) -> list[Finding]:
        if not kept and not left_out:
            return []
        firsts = [entry for entry, _ in left_out.values()]
        located = kept + firsts
        self.source.prepare([v.pointer for _, v, _ in located] + [p for _, v, _ in located for p, _ in v.related])
        findings = [self._finding(*entry) for entry in kept]
        findings.extend(left_out_note(self._finding(*entry), count) for entry, count in left_out.values())
        return findings

    def _finding(self, rule, violation: Violation, tool) -> Finding:
        span, _ = self.source.span(violation.pointer, violation.at_key, violation.within)
        return Finding(
            code=rule.code,
            name=rule.name,
            severity=self.plan.severity.get(rule.code, violation.severity or rule.severity),
            message=violation.message,
            path=self.path,
            span=span,
            pointer=str(violation.pointer),
            checklist=tuple(rule.checklist),
            tool=excerpt(tool) if isinstance(tool, str) else None,
            fingerprint=_fingerprint(rule.code, self.path, violation),
            related=tuple(Related(m, str(p), self.source.span(p)[0]) for p, m in violation.related),
        )


def _moved(violation: Violation, base: Pointer) -> Violation:
    return Violation(
        Pointer((*base, *violation.pointer)), violation.message, violation.at_key,
        tuple((Pointer((*base, *p)), m) for p, m in violation.related), violation.severity, violation.within,
    )


def _fingerprint(code: str, path: str, violation: Violation) -> str:
    """Without the record's position, so a finding keeps its identity when traffic is
    re-recorded with more or fewer lines before it."""
    tokens = list(map(str, violation.pointer))
    while tokens and not tokens[0].isalpha():
        tokens.pop(0)
    if tokens[:3] == ["log", "entries", tokens[2] if len(tokens) > 2 else ""]:
        tokens = tokens[3:]
    payload = f"{code}\0{path}\0{'/'.join(tokens)}\0{violation.message}"
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:32]

