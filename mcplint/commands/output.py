"""What `check` and `audit` share once findings exist: exit codes, colour, writing the report."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcplint.errors import MCPLintError

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def want_color(to_terminal: bool) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force != "0":  # rich treats FORCE_COLOR=0 as "force"; we do not
        return True
    return to_terminal and os.environ.get("TERM") != "dumb"


def write_report(text: str, output: Path | None) -> None:
    # Reporters escape what they print; backslashreplace is the last guard, so a lone
    # surrogate that slipped through becomes the text "\udfff" instead of a crash.
    if output is None:
        try:
            try:
                sys.stdout.write(text)
            except UnicodeEncodeError:  # raised before anything is written; or a non-UTF-8 console
                encoding = sys.stdout.encoding or "utf-8"
                sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))
            sys.stdout.flush()
        except BrokenPipeError:
            raise  # the reader left (`| head`): the entry point ends quietly
        except OSError as err:  # a full disk (`> /dev/full`), an I/O error
            _let_go_of_stdout()
            raise MCPLintError(f"standard output: cannot write report: {err.strerror or err}") from None
        return
    from mcplint.safe_write import write_text

    write_text(output, text, "report")


def _let_go_of_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit does not fail a second time
    with Python's own "Exception ignored" message."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor (captured output)
        pass


def split_values(values: list[str] | None) -> list[str]:
    """--select/--ignore values: comma-separated, repeatable."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def report_view(fmt: str, quiet: bool, statistics: bool) -> str:
    """What the rich report shows: "full", "quiet" or "statistics". --quiet is ignored by machine
    formats (they print only the report anyway) and goes with -v (which logs to stderr): the
    pre-commit hooks pass --quiet, so `args: [-f, github]` or `args: [-v]` must still work.
    --statistics is refused by machine formats, whose reports count per rule already."""
    if statistics and fmt != "rich":
        raise MCPLintError(f"--statistics applies to --format rich; the {fmt} report already counts findings per rule")
    return "statistics" if statistics else "quiet" if quiet and fmt == "rich" else "full"
