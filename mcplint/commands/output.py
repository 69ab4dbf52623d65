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
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as err:
        raise MCPLintError(f"{output}: cannot write report: {err.strerror or err}") from None
