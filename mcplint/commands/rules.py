"""`mcplint rules` and `mcplint explain`."""

from __future__ import annotations

import json
import sys

from mcplint import docs, registry


def rule_dict(rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "checklist": list(rule.checklist),
        "category": rule.category,
        "severity": rule.severity.value,
        "summary": rule.summary(),
    }


def list_rules(fmt: str) -> None:
    rules = registry.all_rules()
    if fmt == "json":
        print(json.dumps([rule_dict(r) for r in rules], indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("code", "name", "checklist", "severity", "summary"):
        table.add_column(column, overflow="fold")
    for rule in rules:
        table.add_row(rule.code, rule.name, ",".join(map(str, rule.checklist)) or "-", rule.severity.value, rule.summary())
    if sys.stdout.isatty():
        Console().print(table)
        return
    import io

    # piped: plain text of a fixed width, without the padding rich puts after the last column
    console = Console(file=io.StringIO(), width=160, color_system=None, _environ={})
    console.print(table)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in console.file.getvalue().splitlines()))


def explain_rule(token: str) -> None:
    rule = registry.get(token)
    text = docs.markdown(rule)
    if not sys.stdout.isatty():
        sys.stdout.write(text)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    Console().print(Markdown(text))
