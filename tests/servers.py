"""Start the fixture servers in fixtures/servers for real, talk to them, and never leak a process.

- `free_port()`: a port on 127.0.0.1 nobody listens on (also the "nothing listens" URL).
- `HttpServer`: a server process in its own process group, started on a free port; `start()`
  waits until it accepts connections, `stop()` kills the whole group (always, also on failure).
- `StdioClient`: a stdio server driven with raw JSON-RPC lines, each read bounded in time.
- `orphans(tag)`: processes whose environment carries MCPLINT_FIXTURE_TAG=tag; every server the
  tests start (directly or through `mcplint audit --env`) is tagged, so a test can prove that no
  process outlived the audit that started it.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

SERVERS = Path(__file__).resolve().parent.parent / "fixtures" / "servers"
PYTHON = sys.executable
TAG_VARIABLE = "MCPLINT_FIXTURE_TAG"


def server_command(name: str, *args: str) -> list[str]:
    """The command that runs fixtures/servers/<name>.py."""
    return [PYTHON, str(SERVERS / f"{name}.py"), *args]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def new_tag() -> str:
    return uuid.uuid4().hex


def orphans(tag: str) -> list[int]:
    """Live processes whose environment has MCPLINT_FIXTURE_TAG=tag (zombies count as gone)."""
    needle = f"{TAG_VARIABLE}={tag}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


def wait_for_no_orphans(tag: str, within: float = 3.0) -> list[int]:
    """Orphans still alive after `within` seconds (an exiting process may need a moment)."""
    deadline = time.monotonic() + within
    while (left := orphans(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def kill_tagged(tag: str) -> None:
    for pid in orphans(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def kill_group(proc: subprocess.Popen) -> None:
    """SIGTERM the process group, then SIGKILL whatever is left of it; reap the leader."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(3)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # a leader that ignored SIGTERM, or stragglers in its group
    except ProcessLookupError:
        pass
    proc.wait(3)


class HttpServer:
    """One fixture server over Streamable HTTP on 127.0.0.1:<free port>, in its own process group."""

    def __init__(self, name: str, *args: str, env: dict | None = None, tag: str | None = None):
        self.name, self.args = name, args
        self.tag = tag or new_tag()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.env = {**os.environ, **(env or {}), TAG_VARIABLE: self.tag}
        self.proc: subprocess.Popen | None = None
        self.stderr_path: Path | None = None

    def start(self, within: float = 20.0) -> "HttpServer":
        import tempfile

        self.stderr_path = Path(tempfile.mkstemp(prefix=f"{self.name}-", suffix=".stderr")[1])
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen(
                server_command(self.name, "http", str(self.port), *self.args), env=self.env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}: {self.stderr()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.name} did not listen on port {self.port} within {within} s: {self.stderr()}")

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")[-2000:] if self.stderr_path else ""

    def stop(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
        kill_tagged(self.tag)
        if self.stderr_path is not None:
            self.stderr_path.unlink(missing_ok=True)

    def __enter__(self) -> "HttpServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def post(url: str, body: str | bytes | dict | list, headers: dict | None = None, timeout: float = 10.0):
    """POST one body; returns (status, headers as a lower-case dict, decoded JSON or text or None)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("POST", parts.path, body=data, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **(headers or {})})
        response = conn.getresponse()
        raw = response.read().decode("utf-8", "replace")
        found = {name.lower(): value for name, value in response.getheaders()}
    finally:
        conn.close()
    if found.get("content-type", "").startswith("application/json") and raw:
        return response.status, found, json.loads(raw)
    if found.get("content-type", "").startswith("text/event-stream"):
        events = [json.loads(line[5:]) for line in raw.splitlines() if line.startswith("data:") and line[5:].strip()]
        return response.status, found, events[0] if len(events) == 1 else events
    return response.status, found, raw or None


class StdioClient:
    """A stdio server in its own process group, driven one raw JSON-RPC line at a time."""

    def __init__(self, name: str, *args: str, env: dict | None = None, tag: str | None = None):
        self.tag = tag or new_tag()
        self.proc = subprocess.Popen(
            server_command(name, *args), env={**os.environ, **(env or {}), TAG_VARIABLE: self.tag},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.buffer = b""

    def send(self, message: str | dict | list) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_line(self, timeout: float = 10.0) -> str | None:
        """The next stdout line, or None when none comes within `timeout` s or stdout closes."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def request(self, message: dict | str | list, timeout: float = 10.0):
        """Send, then read one answer: parsed JSON, or None when nothing came."""
        self.send(message)
        line = self.read_line(timeout)
        return None if line is None else json.loads(line)

    def initialize(self, version: str = "2025-11-25") -> dict:
        answer = self.request({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "tests", "version": "0"}}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(1)  # a well-behaved server exits when its stdin closes
        except subprocess.TimeoutExpired:
            pass
        kill_group(self.proc)
        kill_tagged(self.tag)
        self.selector.close()
        self.proc.stdout.close()
        self.stderr_text = self.proc.stderr.read().decode("utf-8", "replace")
        self.proc.stderr.close()

    def __enter__(self) -> "StdioClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
