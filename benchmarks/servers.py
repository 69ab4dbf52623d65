"""Speed benchmark for repository mode (run by hand: python benchmarks/servers.py).

Lints the example repository fixtures/repos/fastmcp-weather (official `mcp` SDK, MCPServer) as a
user would: `mcplint check --servers-only` with a `servers:` entry, start to report (start the
server, list tools, prompts and resources, lint, place every finding on its source line). Beside
it, the server alone: start it and have it answer `initialize` and `tools/list` (then it is killed).
Target (issue 11): the check adds at most 0.3 s to the server's own start (both include the
interpreter start of their own process). Reports the best and the median of N runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPO = ROOT / "fixtures" / "repos" / "fastmcp-weather"
TARGET = 0.3
HELLO = (b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", '
         b'"capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}\n'
         b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
         b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n')


def time_check(python: str, repo: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.run([python, "-m", "mcplint", "check", "--servers-only", "--format", "json"],
                          cwd=repo, capture_output=True, timeout=120)
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        sys.exit(f"check failed (exit {proc.returncode}): {proc.stderr.decode()[-2000:]}")
    assert json.loads(proc.stdout)["summary"]["servers"] == 1
    return elapsed


def time_server(python: str, repo: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen([python, "-m", "weather"], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    proc.stdin.write(HELLO)
    proc.stdin.flush()
    answers = 0
    while answers < 2:  # the initialize result and the tools/list result
        line = proc.stdout.readline()
        if not line:
            sys.exit("the server ended before answering tools/list")
        answers += b'"id":' in line.replace(b" ", b"")
    elapsed = time.perf_counter() - started  # started and listed: what mcplint needs of it
    proc.kill()
    proc.wait(timeout=30)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="an interpreter with mcplint and the mcp SDK")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        repo = Path(temp) / "repo"
        shutil.copytree(REPO, repo, ignore=shutil.ignore_patterns("__pycache__"))
        (repo / ".mcplint.yaml").write_text(
            f"servers:\n  - name: weather\n    command: [{json.dumps(args.python)}, -m, weather]\n"
            "    source: [weather/]\n", encoding="utf-8")
        time_check(args.python, repo)  # warm the file cache and the bytecode
        checks = [time_check(args.python, repo) for _ in range(args.runs)]
        servers = [time_server(args.python, repo) for _ in range(args.runs)]
    added = min(checks) - min(servers)
    print(f"mcplint check --servers-only   best {min(checks):.2f} s   median {statistics.median(checks):.2f} s")
    print(f"the server alone               best {min(servers):.2f} s   median {statistics.median(servers):.2f} s")
    print(f"added by mcplint               {added:.2f} s (target <= {TARGET} s: {'met' if added <= TARGET else 'MISSED'})")


if __name__ == "__main__":
    main()
