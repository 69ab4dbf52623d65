"""Opening the files mcplint writes (reports, lock files, baselines, recordings) so that a cloned
repository cannot aim them elsewhere.

A path is written only as a regular file of its folder: a symbolic link there (`mcplint.lock ->
~/.bashrc`, a dangling `mcplint.sarif -> ~/.ssh/authorized_keys`) is refused, not followed. A link
to something that is not a file, such as `/dev/stdout` or bash's `/dev/fd/63` of `-o >(cat)`, is
followed: writing there is printing. A named pipe that nobody reads is refused at once instead of
waiting forever for a reader.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import TextIO

from mcplint.errors import MCPLintError


# Windows has neither flag (nor symlinks a repository can plant without privileges, nor FIFOs).
_NOFOLLOW, _NONBLOCK = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_NONBLOCK", 0)


def open_text(path: Path | str, what: str) -> TextIO:
    """``path`` opened for writing text (truncated), or a one-line MCPLintError naming ``what``."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _NONBLOCK, 0o644)
    except OSError as err:
        handle = _through_link(path, what, err)
    try:
        if _NONBLOCK:
            os.set_blocking(handle, True)
        return os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as err:
        os.close(handle)
        raise MCPLintError(f"{path}: cannot write {what}: {err.strerror or err}") from None


def write_text(path: Path | str, text: str, what: str) -> None:
    """``text`` written to ``path`` as ``open_text`` opens it."""
    with open_text(path, what) as out:
        try:
            out.write(text)
        except OSError as err:
            raise MCPLintError(f"{path}: cannot write {what}: {err.strerror or err}") from None


def _through_link(path: Path | str, what: str, err: OSError) -> int:
    """The descriptor when ``path`` is a link to a terminal, a pipe or a device; else the error."""
    if err.errno == errno.ENXIO:
        raise MCPLintError(f"{path}: cannot write {what}: a named pipe that nobody reads") from None
    if err.errno != errno.ELOOP:
        raise MCPLintError(f"{path}: cannot write {what}: {err.strerror or err}") from None
    try:
        target = os.stat(path)
    except OSError:
        target = None
    if target is None or stat.S_ISREG(target.st_mode) or stat.S_ISDIR(target.st_mode):
        where = os.readlink(path) if os.path.islink(path) else "another file"
        raise MCPLintError(f"{path}: is a symbolic link (to {where}); mcplint writes its {what} only to a regular "
                           "file, never through a link (remove the link, or write elsewhere)") from None
    try:
        return os.open(path, os.O_WRONLY | _NONBLOCK)
    except OSError as again:
        if again.errno == errno.ENXIO:
            raise MCPLintError(f"{path}: cannot write {what}: a named pipe that nobody reads") from None
        raise MCPLintError(f"{path}: cannot write {what}: {again.strerror or again}") from None
