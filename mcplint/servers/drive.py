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


class DriveFailed(MCPLintError):
    """The server could not be started or stopped answering; ``audit`` is what it got so far."""

    def __init__(self, message: str, audit, server_lines: int) -> None:
        super().__init__(message)
        self.audit, self.server_lines = audit, server_lines


def drive(*, url: str | None, argv: list[str], label: str, env: dict[str, str], cwd: str | None,
          headers: dict[str, str], settings, record_path: Path, log: Callable[[str], None],
          steps: Callable) -> Any:
    """Connect, run ``steps(audit)`` (e.g. ``runner.run``), always close; the Audit."""
    from mcplint.audit import runner
    from mcplint.audit.recorder import Recorder, secret_values

    try:
        handle = open(record_path, "w", encoding="utf-8")
    except OSError as err:
        raise MCPLintError(f"--record {record_path}: cannot write: {err.strerror or err}") from None
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _interrupt)  # so `finally` stops the server on a kill too
    session = audit = None
    recorder = Recorder(handle, headers, secret_values(headers, env))
    try:
        session = _session(url, argv, label, env, cwd, headers, settings, recorder)
        audit = runner.Audit(session, settings, log)
        steps(audit)
    except MCPLintError as err:  # a server's words may carry a credential it was given
        raise DriveFailed(recorder.redact_text(str(err)), audit, recorder.server_lines) from None
    finally:
        if session is not None:
            session.close()
        handle.close()
        signal.signal(signal.SIGTERM, previous)
    audit.notes[:] = [recorder.redact_text(note) for note in audit.notes]
    return audit


def _session(url, argv, label, env, cwd, headers, settings, recorder):
    if url is not None:
        from mcplint.audit.http import HttpClient
        from mcplint.audit.session import HttpSession

        client = HttpClient(url, headers, recorder, f"mcplint/{__version__}")
        return HttpSession(client, recorder, settings.timeout)
    from mcplint.audit.stdio import StdioProcess
    from mcplint.audit.stdio_session import StdioSession

    return StdioSession(StdioProcess(argv, env, cwd), recorder, settings.timeout, label)


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
