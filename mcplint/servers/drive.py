"""Start a configured server, record the session, and list (or audit) it.

The session goes through the audit's hardened transports (bounded reads, an overall time
limit, the process group killed at the end) and is recorded as a JSONL transcript, so an
audited server is linted exactly like `mcplint audit` lints it.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any, Callable

from mcplint import __version__
from mcplint.errors import MCPLintError

LISTINGS = (  # (capability, method, result key) of everything a server lists
    ("tools", "tools/list", "tools"),
    ("prompts", "prompts/list", "prompts"),
    ("resources", "resources/list", "resources"),
    ("resources", "resources/templates/list", "resourceTemplates"),
)


LISTING_EXIT_GRACE = 0.0  # listing only: the server's own shutdown is not judged, so SIGTERM it at once


class DriveFailed(MCPLintError):
    """The server could not be started or stopped answering; ``audit`` is what it got so far."""

    def __init__(self, message: str, audit, server_lines: int) -> None:
        super().__init__(message)
        self.audit, self.server_lines = audit, server_lines


def drive(*, url: str | None, argv: list[str], label: str, env: dict[str, str], cwd: str | None,
          headers: dict[str, str], settings, record_path: Path, log: Callable[[str], None],
          steps: Callable, process=None) -> Any:
    """Connect, run ``steps(audit)`` (e.g. ``runner.run``), always close; the Audit.
    ``process``: the stdio server already started by ``prestart`` (or the error starting it)."""
    from mcplint.audit import runner
    from mcplint.audit.recorder import Recorder, secret_values

    from mcplint.safe_write import open_text

    handle = open_text(record_path, "recording (--record)")
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _interrupt)  # so `finally` stops the server on a kill too
    session = audit = None
    recorder = Recorder(handle, headers, secret_values(headers, env))
    try:
        if isinstance(process, MCPLintError):
            raise process
        session = _session(url, argv, label, env, cwd, headers, settings, recorder, process)
        audit = runner.Audit(session, settings, log)
        steps(audit)
    except MCPLintError as err:  # a server's words may carry a credential it was given
        raise DriveFailed(recorder.redact_text(str(err)), audit, recorder.server_lines) from None
    finally:
        if session is not None:
            if steps is list_everything and hasattr(session, "process"):
                session.process.exit_grace = LISTING_EXIT_GRACE
            session.close()
        handle.close()
        signal.signal(signal.SIGTERM, previous)
    audit.notes[:] = [recorder.redact_text(note) for note in audit.notes]
    return audit


PRESTART = 8  # servers booting at once; a monorepo's sixty would crowd the machine, the rest start in turn


def prestart(specs) -> dict[str, Any]:
    """Start the first PRESTART configured stdio servers at once, so that each boots while mcplint
    loads its rules and walks the files: name -> the process, or the error that kept it from
    starting. (Processes not handed to ``drive`` must be closed: ``close_unused``.)"""
    from mcplint.audit.stdio import StdioProcess

    started: dict[str, Any] = {}
    for spec in specs:
        if spec.url is None and len(started) < PRESTART:
            try:
                started[spec.name] = StdioProcess(list(spec.command), dict(spec.env), str(spec.cwd))
            except MCPLintError as err:
                started[spec.name] = err
    return started


def close_unused(started: dict[str, Any]) -> None:
    for process in started.values():
        if not isinstance(process, MCPLintError):
            process.exit_grace = LISTING_EXIT_GRACE
            process.close()
    started.clear()


def _session(url, argv, label, env, cwd, headers, settings, recorder, process=None):
    if url is not None:
        from mcplint.audit.http import HttpClient
        from mcplint.audit.session import HttpSession

        client = HttpClient(url, headers, recorder, f"mcplint/{__version__}")
        return HttpSession(client, recorder, settings.timeout)
    from mcplint.audit.stdio import StdioProcess
    from mcplint.audit.stdio_session import StdioSession

    return StdioSession(process or StdioProcess(argv, env, cwd), recorder, settings.timeout, label,
                        start=lambda: StdioProcess(argv, env, cwd))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def list_everything(audit) -> None:
    """The listing steps alone: connect, then every page of every list the server offers
    (``audit.listed``); no probe is sent."""
    from mcplint.audit import runner

    if not runner.establish(audit):
        return
    for capability, method, key in LISTINGS:
        if capability in audit.capabilities:
            audit.listed[key] = runner.list_all(audit, method, key)
    audit.tools = [t for t in audit.listed.get("tools", []) if isinstance(t, dict)]


def listing_document(audit) -> dict[str, list[Any]]:
    """What the server listed as one combined listing: ``{"tools": [...], "prompts": [...], ...}``."""
    listed = audit.listed if audit is not None else {}
    document: dict[str, list[Any]] = {"tools": list(listed.get("tools", []))}
    for _, _, key in LISTINGS[1:]:
        if listed.get(key):
            document[key] = list(listed[key])
    return document
