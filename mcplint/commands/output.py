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
            sys.stdout.write(text)
        except UnicodeEncodeError:  # raised before anything is written; or a non-UTF-8 console
            encoding = sys.stdout.encoding or "utf-8"
            sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8", errors="backslashreplace")
    except OSError as err:
        raise MCPLintError(f"{output}: cannot write report: {err.strerror or err}") from None
