"""Rule documentation from docstrings: sections, runnable examples, markdown pages."""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass

from mcplint import versions
from mcplint.checklist import ITEMS
from mcplint.regex_cache import regex

_SECTION = regex(r"^## +(.+?)\s*$", re.M)
_FENCE = regex(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)
README_START = "<!-- rules-table:start -->"
README_END = "<!-- rules-table:end -->"
PAGES_DIR = "docs/rules"  # one page per rule, generated (SARIF helpUri points here)
PAGE_LINK = PAGES_DIR + "/{code}.md"


@dataclass(frozen=True)
class Example:
    kind: str  # "bad" | "good"
    format: str  # "json" | "yaml"
    text: str
    version: str | None  # from the fence info, e.g. ```json protocol=2025-06-18
    lock: str | None = None  # the manifest as pinned, from the rule's `## Lock` section (MCP5xx)


def docstring(rule) -> str:
    return inspect.cleandoc(rule.__doc__ or "")


def sections(rule) -> dict[str, str]:
    """{"summary": first paragraph, "<Section>": body, ...} from the docstring."""
    text = docstring(rule)
    parts = _SECTION.split(text)
    found = {"summary": parts[0].strip()}
    for title, body in zip(parts[1::2], parts[2::2]):
        found[title.strip()] = body.strip()
    return found


def examples(rule) -> list[Example]:
    found = []
    parts = sections(rule)
    pinned = _FENCE.findall(parts.get("Lock", ""))  # lock rules: the manifest as `mcplint lock` saw it
    lock = pinned[0][2] if pinned else None
    for title, body in parts.items():
        kind = title.lower()
        if kind not in ("bad", "good"):
            continue
        for lang, info, code in _FENCE.findall(body):
            match = re.search(r"protocol=(\S+)", info)
            found.append(Example(kind, lang.lower(), code, match.group(1) if match else None, lock))
    return found


def version_range(rule) -> str:
    applies = [v for v in versions.VERSIONS if v in rule.versions]
    if len(applies) == len(versions.VERSIONS):
        return "all"
    if applies == list(versions.VERSIONS[versions.VERSIONS.index(applies[0]):]):
        return f"{applies[0]} and later"
    if applies == list(versions.VERSIONS[: len(applies)]):
        return f"{applies[-1]} and earlier"
    return ", ".join(applies)


def markdown(rule) -> str:
    """The rule's full documentation page."""
    parts = sections(rule)
    checklist = ", ".join(f"{i} ({ITEMS[i]})" for i in rule.checklist) or (
        "none (protocol rule)" if rule.category == "protocol" else "none"
    )
    lines = [
        f"# {rule.code} {rule.name}",
        "",
        parts["summary"],
        "",
        f"- **Severity:** {rule.severity.value}",
        f"- **Category:** {rule.category}",
        f"- **Checklist:** {checklist}",
        f"- **Protocol versions:** {version_range(rule)}",
        "",
    ]
    for title, body in parts.items():
        if title != "summary":
            lines += [f"## {title}", "", body, ""]
    fields = rule.Options.fields()
    if fields:
        lines += ["## Options", "", "| option | default | meaning |", "| --- | --- | --- |"]
        for name, spec in fields.items():
            lines.append(f"| `{name.replace('_', '-')}` | `{json.dumps(spec.default)}` | {spec.description} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def rules_table(rules, link: str = PAGE_LINK) -> str:
    """The README's rules table (kept between markers; a test fails when it is stale).
    Each code links to its page (``link`` formatted with the code)."""
    rows = ["| code | name | checklist | severity | summary |", "| --- | --- | --- | --- | --- |"]
    for rule in rules:
        items = ", ".join(str(i) for i in rule.checklist) or "—"
        code = f"[{rule.code}]({link.format(code=rule.code)})"
        rows.append(f"| {code} | `{rule.name}` | {items} | {rule.severity.value} | {rule.summary()} |")
    return "\n".join(rows)


def rule_pages(rules) -> dict[str, str]:
    """The files of docs/rules: ``<CODE>.md`` per rule (what `mcplint explain` prints, under a
    do-not-edit comment naming the docstring it comes from) and an ``index.md`` with the rules table
    (the docs site's rules page)."""
    pages = {}
    for rule in rules:
        source = rule.__module__.replace("mcplint_rules.", "rules/", 1).replace(".", "/") + ".py"
        pages[f"{rule.code}.md"] = (
            f"<!-- Generated from the docstring of {rule.__name__} in {source}: edit it there, then run\n"
            f"     MCPLINT_UPDATE_GOLDEN=1 python -m pytest tests/test_rule_pages.py -->\n" + markdown(rule)
        )
    pages["index.md"] = "\n".join([
        "<!-- Generated from the rule registry: MCPLINT_UPDATE_GOLDEN=1 python -m pytest tests/test_rule_pages.py -->",
        "# mcplint rules",
        "",
        "One page per rule, generated from the rule's docstring: why it matters, bad and good examples",
        "(they run as tests), and its options. `mcplint explain CODE` shows the same page in a terminal.",
        "Configure rules in `.mcplint.yaml` (`select`, `ignore`, `severity`, `options`): see",
        "[Configuration](../configuration.md).",
        "",
        rules_table(rules, "{code}.md"),
        "",
    ])
    return pages
