"""The rule API: rules yield Violations (pointer + message); the engine does the rest."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from mcplint import versions
from mcplint.document.pointer import Pointer
from mcplint.findings import MAX_MESSAGE, Severity, bounded

if TYPE_CHECKING:
    from mcplint.document.manifest import Manifest

MANIFEST = "manifest"
CAPTURE = "capture"  # JSONL transcripts and HAR files


@dataclass(frozen=True, slots=True)
class Violation:
    pointer: Pointer
    message: str
    at_key: bool = False  # locate the member's key rather than its value
    related: tuple[tuple[Pointer, str], ...] = ()
    severity: Severity | None = None  # this finding's own level (a version or context lowers it); None: the rule's
    # The offending part of the string at ``pointer``: [start, end) in its decoded characters
    # (the word a text rule found). The finding is located there when the source shows it on
    # one line; otherwise, and for every other value, at the whole value.
    within: tuple[int, int] | None = None

    def bounded(self) -> "Violation":
        """This violation with its messages within a report's bounds (``findings.bounded``).
        The engine calls it as each violation arrives, so no rule can fill memory or a report
        by quoting a huge name thousands of times."""
        if len(self.message) <= MAX_MESSAGE and all(len(m) <= MAX_MESSAGE for _, m in self.related):
            return self
        return Violation(self.pointer, bounded(self.message), self.at_key,
                         tuple((p, bounded(m)) for p, m in self.related), self.severity, self.within)


class Option:
    """A declared rule option: ``max_words: int = Option(200, "Longest useful description.")``."""

    def __init__(self, default: Any, description: str) -> None:
        self.default = default
        self.description = description


class RuleOptions:
    """Base for a rule's options. Subclasses declare annotated ``Option`` attributes;
    config values are validated against the annotations (see mcplint.config)."""

    def __init__(self, **values: Any) -> None:
        for name, spec in self.fields().items():
            setattr(self, name, values.get(name, copy.deepcopy(spec.default)))

    @classmethod
    def fields(cls) -> dict[str, Option]:
        found: dict[str, Option] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, Option):
                    found[name] = value
        return found

    @classmethod
    def annotations(cls) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            merged.update(getattr(klass, "__annotations__", {}))
        return merged


@dataclass(frozen=True, slots=True)
class RuleContext:
    version: str  # the protocol version the document is linted against
    options: Any  # the rule's Options instance
    path: str
    doc: "Manifest"  # its texts()/parameters() walks are shared by all rules (a Session for TrafficRules)
    lock: Any = None  # a mcplint.pinning.Lock when `check --lock` is given (read by MCP501-MCP503)


class Rule:
    """Base class. Subclasses set the metadata below and implement ``check``.

    The class docstring is the rule's documentation: a one-line summary, then
    ``## Why``, ``## Bad`` and ``## Good`` sections whose fenced examples run as tests.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    checklist: ClassVar[tuple[int, ...]] = ()
    category: ClassVar[str]
    severity: ClassVar[Severity] = Severity.WARNING
    versions: ClassVar[frozenset[str]] = versions.ALL
    applies_to: ClassVar[frozenset[str]] = frozenset({MANIFEST})
    Options: ClassVar[type[RuleOptions]] = RuleOptions

    def check(self, doc: "Manifest", ctx: RuleContext) -> Iterator[Violation]:
        raise NotImplementedError

    @classmethod
    def load(cls) -> type["Rule"]:
        """The class itself (as ``registry.RuleEntry.load()`` gives it): code that takes either."""
        return cls

    @classmethod
    def summary(cls) -> str:
        doc = (cls.__doc__ or "").strip()
        return doc.splitlines()[0].strip() if doc else ""


class ToolRule(Rule):
    """A rule that looks at one tool definition at a time."""

    # The tool fields check_tool is about: when set, it runs only for tools with one of them.
    fields: ClassVar[frozenset[str] | None] = None

    def check(self, doc: "Manifest", ctx: RuleContext) -> Iterator[Violation]:
        for ptr, tool in self.candidates(doc, ctx):
            yield from self.check_tool(ptr, tool, ctx)

    def candidates(self, doc: "Manifest", ctx: RuleContext) -> list[tuple[Pointer, dict]]:
        """The tool objects check_tool may find something in, in order: every one, or those
        with one of ``fields``. A rule overrides it with a cheap test over the whole document
        (``doc.census()``) so that 10,000 tools cost no 10,000 calls; it may leave out only
        tools check_tool finds nothing in at ``ctx.version``."""
        if self.fields is None:
            return doc.tool_objects()
        return doc.census().with_any(self.fields)

    def check_tool(self, ptr: Pointer, tool: dict, ctx: RuleContext) -> Iterator[Violation]:
        raise NotImplementedError


class TrafficRule(Rule):
    """A rule over captured traffic (transcripts, HAR files, live audits).

    Override any of the hooks; the engine calls only the ones a rule overrides. The
    ``session`` holds what the capture has settled so far (version, capabilities, the
    tools from tools/list, pending requests). A rule that had evidence to judge its
    checklist items calls ``session.assess(self)``, found problem or not: the checklist
    summary shows items no rule could judge as not assessable, saying ``needs``.
    """

    applies_to: ClassVar[frozenset[str]] = frozenset({CAPTURE})
    needs: ClassVar[str] = ""  # the evidence the rule judges, e.g. "a tools/call result"
    # A capture has a million messages: these filters let the engine skip a rule's hooks
    # for messages it cannot be about, instead of calling them to return at once.
    # The JSON-RPC methods the rule is about: when set, check_exchange runs only for exchanges
    # whose request has one of them, and check_message only for requests and notifications
    # with one of them (not for responses).
    methods: ClassVar[frozenset[str] | None] = None
    # When set, check_record and check_message run only for what comes from these senders
    # ("client"/"server"; records whose direction is unknown always run).
    senders: ClassVar[frozenset[str] | None] = None
    # When set, check_record runs only for server records with one of these HTTP statuses.
    statuses: ClassVar[frozenset[int] | None] = None
    # When set, check_message runs only for these message kinds ("request", "notification",
    # "response", "invalid"). errors_only: check_message runs only for messages that have an
    # `error` member, check_exchange only for failed exchanges (an error or an isError result).
    kinds: ClassVar[frozenset[str] | None] = None
    errors_only: ClassVar[bool] = False
    # When set, check_record runs only for records that are not usable (``record.problem``).
    problems_only: ClassVar[bool] = False
    # When set, check_record runs only for records of these transports: "stdio" (no HTTP
    # facts: ``record.http`` is None) or "http".
    transports: ClassVar[frozenset[str] | None] = None
    # Names of mcplint.capture.ordinary's predicates (PLAIN_SUCCESS for check_message,
    # ORDINARY_ANSWER for check_record) under which the rule finds nothing and changes no
    # state: the engine asks the predicate once instead of calling each such rule.
    quiet_on: ClassVar[frozenset[str]] = frozenset()

    def check(self, doc, ctx: RuleContext) -> Iterator[Violation]:
        return iter(())

    def check_record(self, record, session, ctx: RuleContext) -> Iterator[Violation]:
        """Every record, also HTTP exchanges without a JSON-RPC body (``record.message`` None)."""
        return iter(())

    def check_message(self, message, session, ctx: RuleContext) -> Iterator[Violation]:
        """Every JSON-RPC message (each item of a batch on its own), as it arrives."""
        return iter(())

    def check_exchange(self, exchange, session, ctx: RuleContext) -> Iterator[Violation]:
        """Every request paired with its response, when the response arrives."""
        return iter(())

    def check_session(self, session, ctx: RuleContext) -> Iterator[Violation]:
        """Once, after the last record (unanswered requests are still in ``session.pending``)."""
        return iter(())
