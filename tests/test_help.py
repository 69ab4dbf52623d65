"""Every command's --help, rendered for real: no text in square brackets is lost to rich markup
(`[tool.mcplint]`, `[default: error]`), the usage lines read like click's, and nothing is stale."""

from __future__ import annotations

import ast
import re

import pytest

from conftest import ROOT, run_mcplint

CLI = ROOT / "mcplint" / "cli.py"
BRACKETED = re.compile(r"\[[^\[\]\n]*\]")


def _strings(node, constants: dict[str, str]) -> list[str]:
    """String constants inside ``node`` (a call's help=, a name bound to a module-level string)."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            found.append(sub.value)
        elif isinstance(sub, ast.Name) and sub.id in constants:
            found.append(constants[sub.id])
    return found


def help_texts() -> dict[str, list[str]]:
    """{command ("" for the root): every help text and metavar written for it in mcplint/cli.py}."""
    tree = ast.parse(CLI.read_text(encoding="utf-8"))
    constants = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
    texts: dict[str, list[str]] = {"": []}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "attr", "") == "Typer":
            texts[""] += [s for k in node.value.keywords if k.arg == "help" for s in _strings(k.value, constants)]
        if not isinstance(node, ast.FunctionDef):
            continue
        decorators = [d.func.attr if isinstance(d, ast.Call) else getattr(d, "attr", "") for d in node.decorator_list]
        if "command" not in decorators and "callback" not in decorators:
            continue
        name = "" if "callback" in decorators else node.name
        docstring = ast.get_docstring(node)
        texts.setdefault(name, []).extend([docstring] if docstring else [])
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if isinstance(default, ast.Call):
                texts[name] += [s for k in default.keywords if k.arg in ("help", "metavar") for s in _strings(k.value, constants)]
    return texts


TEXTS = help_texts()


def rendered(command: str) -> str:
    """``mcplint COMMAND --help`` as one line of words: panels' borders gone, wrapping undone."""
    proc = run_mcplint(*([command] if command else []), "--help", env={"COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr.decode()
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", proc.stdout.decode()))


def test_every_command_and_option_has_help_text_to_check():
    assert set(TEXTS) == {"", "check", "audit", "lock", "init", "rules", "explain"}
    brackets = {b for texts in TEXTS.values() for text in texts for b in BRACKETED.findall(text)}
    assert {"[tool.mcplint]", "[default: error]", "[ARG...]"} <= brackets, brackets


@pytest.mark.parametrize("command", sorted(TEXTS))
def test_square_brackets_survive(command):
    text = rendered(command)
    for written in TEXTS[command]:
        for bracketed in BRACKETED.findall(written):
            assert re.sub(r"\s+", " ", bracketed) in text, f"{bracketed!r} lost from `mcplint {command} --help`"
    if command:  # typer's own markers still show
        assert "Show this message and exit." in text


def test_usage_lines_name_arguments_plainly():
    usage = {command: re.search(r"Usage: (.*?) (?:Lint|Audit|Pin|Write|List|Show|Compliance)", rendered(command)).group(1)
             for command in ("check", "audit", "lock", "explain", "rules")}
    assert usage == {
        "check": "mcplint check [OPTIONS] [PATH]...",
        "audit": "mcplint audit [OPTIONS] {URL | -- COMMAND [ARG...]}",
        "lock": "mcplint lock [OPTIONS] PATH...",
        "explain": "mcplint explain [OPTIONS] RULE",
        "rules": "mcplint rules [OPTIONS] [RULE]",
    }


def test_check_help_names_everything_check_reads():
    text = rendered("check")
    summary = text.split("Usage: mcplint check [OPTIONS] [PATH]... ", 1)[1].split(" Arguments ", 1)[0]
    for kind in ("manifests", "listings", "captures (JSONL, HAR)", "servers the config lists"):
        assert kind in summary, summary
    for flag in ("--quiet", "-q", "--statistics"):
        assert flag in text


def test_audit_help_says_a_bare_command_works():
    text = rendered("audit")
    assert "the -- may be left out when the command has no options of its own" in text
    assert "--quiet" in text and "--statistics" in text
