"""SIGTERM handled like Ctrl-C while temporary files exist (an audit's recording, a configured
server's): ``finally`` blocks run, the files go, and the exit code is 130."""

from __future__ import annotations

import signal


class TerminateAsInterrupt:
    """While it is installed, SIGTERM raises KeyboardInterrupt (as mcplint.servers.drive does during
    the session, which nests its own handler inside this one): ``finally`` blocks run and the exit
    code is 130, as for Ctrl-C. ``hold`` defers a SIGTERM during cleanup, ``restore`` puts the
    previous handler back and then raises the deferred interrupt. Off the main thread, where no
    handler can be set, it does nothing."""

    def __init__(self) -> None:
        self._held = self._pending = self._installed = False
        try:
            self._previous = signal.signal(signal.SIGTERM, self._handle)
            self._installed = True
        except (ValueError, OSError):  # not the main thread
            pass

    def _handle(self, signum, frame) -> None:
        if self._held:
            self._pending = True
            return
        raise KeyboardInterrupt

    def hold(self) -> None:
        self._held = True

    def restore(self) -> None:
        if not self._installed:
            return
        # None: a handler set outside Python, which cannot be put back; the default is the closest
        signal.signal(signal.SIGTERM, self._previous if self._previous is not None else signal.SIG_DFL)
        self._installed = False
        if self._pending:
            raise KeyboardInterrupt
