"""The `mcplint` command's entry point. It reads the everyday `mcplint check ...` line (and
`mcplint --version`) itself and hands everything else to the typer app in mcplint/cli.py.

Why: typer and its click take longer to import than a small manifest takes to lint, and
`check` runs on every commit as a pre-commit hook. The typer app stays the one definition of
the command line: this reader accepts a plain subset of what the app accepts (long options with
their value after a space or "=", -f/-o with a separate value, -v/-q alone, paths, "--") and
gives up on anything else, returning None: help, other commands, an unknown option, a choice
it does not know, a value starting with "-", so typer parses those and writes any error.
tests/test_entry.py holds the two readers to the same parameters, option by option.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

FORMATS = ("rich", "json", "sarif", "github", "junit", "gitlab")
FAIL_ON = ("error", "warning", "info", "never")
_PATH, _TEXT, _LIST = "path", "text", "list"

# `check`'s options taking a value: spelling -> (parameter, how its value is read: a path,
# free text, a repeatable list, or one of a tuple of choices)
CHECK_OPTIONS: dict[str, tuple[str, object]] = {
    "--format": ("format", FORMATS), "-f": ("format", FORMATS),
    "--output": ("output", _PATH), "-o": ("output", _PATH),
    "--select": ("select", _LIST),
    "--ignore": ("ignore", _LIST),
    "--protocol-version": ("protocol_version", _TEXT),
    "--config": ("config", _PATH),
    "--fail-on": ("fail_on", FAIL_ON),
    "--baseline": ("baseline", _PATH),
    "--write-baseline": ("write_baseline", _PATH),
    "--sarif-output": ("sarif_output", _PATH),
    "--lock": ("lock", _PATH),
}
# `check`'s flags: spelling -> (parameter, the value it sets)
CHECK_FLAGS: dict[str, tuple[str, bool]] = {
    "--verbose": ("verbose", True), "-v": ("verbose", True),
    "--quiet": ("quiet", True), "-q": ("quiet", True),
    "--statistics": ("statistics", True),
    "--skip-non-manifests": ("skip_non_manifests", True),
    "--servers": ("servers", True), "--no-servers": ("servers", False),
    "--servers-only": ("servers_only", True),
    "--audit": ("audit", True),
}
CHECK_DEFAULTS: dict[str, object] = {
    "paths": None, "format": "rich", "output": None, "select": None, "ignore": None, "protocol_version": None,
    "config": None, "fail_on": None, "verbose": False, "quiet": False, "statistics": False, "baseline": None,
    "write_baseline": None, "sarif_output": None, "skip_non_manifests": False, "lock": None, "servers": None,
    "servers_only": False, "audit": False,
}


def read_check_line(args: list[str]) -> dict | None:
    """The parameters typer would hand `check` for ``args`` (what follows "check"), or None
    when the line is not one this reader is sure of."""
    params = dict(CHECK_DEFAULTS)
    paths: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        at += 1
        if arg == "--":
            paths.extend(args[at:])
            break
        if arg == "-" or not arg.startswith("-"):
            paths.append(arg)
            continue
        name, equals, value = arg.partition("=")
        if name in CHECK_FLAGS and not equals:
            key, flag = CHECK_FLAGS[name]
            params[key] = flag
            continue
        if name not in CHECK_OPTIONS or (equals and not name.startswith("--")):
            return None
        if not equals:
            if at == len(args):
                return None
            value, at = args[at], at + 1
        if not value or value.startswith("-"):
            return None
        key, kind = CHECK_OPTIONS[name]
        if kind == _LIST:
            params[key] = [*(params[key] or []), value]
        elif kind == _PATH:
            params[key] = Path(value)
        elif kind == _TEXT or value in kind:
            params[key] = value
        else:
            return None
    params["paths"] = paths or None
    return params


def main() -> None:
    """Entry point: one-line errors and exit code 2 instead of tracebacks."""
    args = sys.argv[1:]
    try:
        if args == ["--version"]:
            from mcplint import __version__

            print(f"mcplint {__version__}")
            sys.exit(0)
        # typer also expands wildcards on Windows and answers shell completion: those go to it
        quick = args[:1] == ["check"] and os.name != "nt" and "_MCPLINT_COMPLETE" not in os.environ
        params = read_check_line(args[1:]) if quick else None
        if params is None:
            from mcplint.cli import app

            app(prog_name="mcplint")
        else:
            sys.exit(_check(params))
    except KeyboardInterrupt:
        fail("interrupted")
    except BrokenPipeError:
        os._exit(1)
    except Exception as err:  # never a traceback; MCPLINT_DEBUG=1 shows it
        from mcplint.errors import MCPLintError

        if isinstance(err, MCPLintError):
            fail(str(err))
        if isinstance(err, FileNotFoundError) and not _cwd_exists():
            fail("the current directory no longer exists (it was deleted or moved): cd to a folder that does")
        if os.environ.get("MCPLINT_DEBUG"):
            raise
        fail(f"internal error: {type(err).__name__}: {err} (set MCPLINT_DEBUG=1 for details)")


def _cwd_exists() -> bool:
    try:
        os.getcwd()
    except OSError:
        return False
    return True


def _check(params: dict) -> int:
    from mcplint.commands.check import run_check_command

    try:
        return run_check_command(**params)
    except KeyboardInterrupt:  # as typer's main does: the run stopped, no message
        return 130


def fail(message: str) -> None:
    from mcplint.text_safety import printable  # a file name or a server's words: any string

    print(printable(f"mcplint: error: {message}"), file=sys.stderr)
    sys.exit(2)
