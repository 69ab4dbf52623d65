"""The example server repositories in fixtures/repos/, made ready and listed for real.

- `REPOS`: the folder; `PYTHON`: the interpreter the tests run under (it has the `mcp` SDK).
- `node_skip_reason(repo)`: None when `node` can run the repository's server; otherwise why not.
  On a fresh checkout it first runs `npm ci --no-audit --no-fund` in the repository (node_modules
  is not committed, package-lock.json is), so CI on a new machine gets the official SDK from npm.
- `live_listing(command, cwd)`: starts a stdio server, speaks raw JSON-RPC to it (initialize,
  then every page of tools/prompts/resources/resources-templates lists) and stops it, its whole
  process group, whatever happens.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPOS = Path(__file__).resolve().parent.parent / "fixtures" / "repos"
PYTHON = sys.executable
LISTS = (("tools/list", "tools"), ("prompts/list", "prompts"), ("resources/list", "resources"),
         ("resources/templates/list", "resourceTemplates"))


def node_skip_reason(repo: Path) -> str | None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node and npm are not installed: the TypeScript SDK example server cannot run"
    if (repo / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        return None
    try:
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=repo, capture_output=True,
                              text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return f"npm ci in {repo.name} took over 10 minutes"
    if done.returncode != 0:
        return f"npm ci in {repo.name} failed: {(done.stderr or done.stdout).strip()[-400:]}"
    return None


class _Stdio:
    def __init__(self, command: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.next_id = 0

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict, timeout: float) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not self.selector.select(left):
                    raise TimeoutError(f"no answer to {method} within {timeout} s")
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError(f"the server closed stdout before answering {method}")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(3)
                break
            except subprocess.TimeoutExpired:
                continue
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


def live_listing(command: list[str], cwd: Path, timeout: float = 20.0) -> dict[str, list[dict]]:
    """What a stdio server lists, all pages: {"tools": [...], "prompts": [...], ...}."""
    server = _Stdio(command, cwd)
    try:
        server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                      "clientInfo": {"name": "mcplint-tests", "version": "0"}}, timeout)
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        listing: dict[str, list[dict]] = {}
        for method, key in LISTS:
            listing[key], cursor = [], None
            for _ in range(100):
                answer = server.request(method, {"cursor": cursor} if cursor else {}, timeout)
                result = answer.get("result") or {}
                listing[key].extend(result.get(key, []))
                cursor = result.get("nextCursor")
                if not cursor:
                    break
        return listing
    finally:
        server.stop()
