"""What a long wait is waiting for: one spinner line on stderr while servers are driven.

The audit and `check`'s configured servers report what they do (``stage``) and each request
they send (``request``/``answered``); by default nothing listens (the calls cost nothing).
``shown()`` puts a spinner on stderr for its duration, when stderr is a terminal, ``CI`` is
unset and ``TERM`` is not ``dumb`` (``MCPLINT_PROGRESS=1`` forces it, ``=0`` turns it off;
``NO_COLOR`` keeps it, without colour). The line is transient: nothing of it remains once the
report is printed, and a piped or redirected stderr never sees it. rich is imported only then.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

SHOW_ELAPSED_AFTER = 1.0  # seconds: a quick answer shows no clock
NAME_LIMIT = 60  # characters of a server-supplied name (a tool's) on the line


class Progress:
    """Nobody watches: every report is dropped."""

    def stage(self, text: str, *, requests: bool = False) -> None:
        """What mcplint is doing ("probe: ping", "listing tools (page 2)"); with ``requests``, each
        request shows as "waiting for METHOD" after it."""

    def scope(self, text: str) -> None:
        """A prefix for every line ("server weather"), until changed."""

    def request(self, method: Any, params: Any = None) -> None:
        """A request went out; the line counts the seconds until ``answered``."""

    def answered(self) -> None:
        """The request's wait is over (an answer, a timeout or an error)."""


class Spinner(Progress):
    """The line as rich's Live display renders it, ten times a second, on its own thread."""

    def __init__(self, force: bool = False) -> None:
        from rich.console import Console

        self._lock = threading.Lock()
        self._scope = self._stage = self._detail = ""
        self._requests = False
        self._since: float | None = None
        self.console = Console(stderr=True, force_terminal=True if force else None)
        self._live = self._spinner = None

    # -- what the audit reports ------------------------------------------------------
    def stage(self, text: str, *, requests: bool = False) -> None:
        with self._lock:
            self._stage, self._requests, self._detail, self._since = text, requests, "", None

    def scope(self, text: str) -> None:
        with self._lock:
            self._scope = _shown(text) if text else ""

    def request(self, method: Any, params: Any = None) -> None:
        detail = ""
        if method == "tools/call" and isinstance(params, dict):
            detail = f"calling {_shown(params.get('name'))}"
        elif isinstance(method, str) and (self._requests or not self._stage):
            detail = f"waiting for {_shown(method)}"
        with self._lock:
            self._detail, self._since = detail, time.monotonic()

    def answered(self) -> None:
        with self._lock:
            self._detail, self._since = "", None

    # -- the line ---------------------------------------------------------------------
    def line(self) -> str:
        with self._lock:
            text = ": ".join(part for part in (self._scope, self._stage, self._detail) if part)
            if self._since is not None and (waited := time.monotonic() - self._since) >= SHOW_ELAPSED_AFTER:
                text += f" ({waited:.1f} s)"
        return text

    def _renderable(self):
        from rich.spinner import Spinner as RichSpinner
        from rich.text import Text

        if self._spinner is None:
            self._spinner = RichSpinner("dots", style="cyan")
        self._spinner.text = Text(self.line(), no_wrap=True, overflow="ellipsis")
        return self._spinner

    def start(self) -> None:
        from rich.live import Live

        # stdout stays alone (the report may be piped); stderr lines (--verbose) print above the spinner
        self._live = Live(console=self.console, get_renderable=self._renderable, transient=True,
                          refresh_per_second=10, redirect_stdout=False, redirect_stderr=True)
        self._live.start()

    def stop(self) -> None:
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()


_NOBODY = Progress()
_current: Progress = _NOBODY


def current() -> Progress:
    return _current


def stage(text: str, *, requests: bool = False) -> None:
    _current.stage(text, requests=requests)


def scope(text: str) -> None:
    _current.scope(text)


def request(method: Any, params: Any = None) -> None:
    _current.request(method, params)


def answered() -> None:
    _current.answered()


def _setting() -> bool | None:
    """MCPLINT_PROGRESS: True (always), False (never) or None (decide)."""
    value = os.environ.get("MCPLINT_PROGRESS", "").strip().lower()
    return True if value in _ON else False if value in _OFF else None


_ON = ("1", "true", "yes", "always", "on")
_OFF = ("0", "false", "no", "never", "off")


def wanted(stream=None) -> bool:
    """Whether ``shown()`` shows anything: a terminal on stderr, outside CI, not a dumb one."""
    setting = _setting()
    if setting is not None:
        return setting
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or replaced
        return False


@contextmanager
def shown(enabled: bool = True) -> Iterator[Progress]:
    """A spinner for the duration, when wanted (see the module's docstring) and ``enabled`` (a
    caller's --quiet, say); re-entrant."""
    global _current
    if _current is not _NOBODY or not enabled or not wanted():
        yield _current
        return
    spinner = Spinner(force=_setting() is True)
    _current = spinner
    try:
        spinner.start()
        yield spinner
    finally:
        _current = _NOBODY
        spinner.stop()


def _shown(value: Any) -> str:
    """A name for the line: control characters escaped (a server chose it), shortened."""
    from mcplint.audit.server_text import printable

    text = printable(value if isinstance(value, str) else repr(value))
    return text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 3] + "..."
