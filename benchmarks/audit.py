"""Speed benchmark for `mcplint audit` (run by hand: python benchmarks/audit.py).

Audits the bundled SDK fixture server (fixtures/servers/sdk_server.py, official `mcp`
SDK) with 20 tools, start to report, as a user would: `mcplint audit --format json --
python sdk_server.py --tools 20`. Also times the server's own start-up (start, answer
one ping, exit on end of input) to show how much of the audit is the server.
Target (issue 4, on a 2-core machine): a default audit <= 5 s wall.
Reports the best and the median of N runs of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "fixtures" / "servers" / "sdk_server.py"
TARGET = 5.0
PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'


def time_audit(python: str, extra: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(
        [python, "-m", "mcplint", "audit", "--format", "json", *extra, "--", python, str(SERVER), "--tools", "20"],
        cwd=ROOT, capture_output=True, timeout=120,
    )
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        sys.exit(f"audit failed (exit {proc.returncode}): {proc.stderr.decode()[-2000:]}")
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 20, report["summary"]
    return elapsed


def time_server_start(python: str) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen([python, str(SERVER), "--tools", "20"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(PING)
    proc.stdin.flush()
    proc.stdout.readline()
    proc.stdin.close()
    proc.wait(timeout=30)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="interpreter with mcplint and mcp installed")
    args = parser.parse_args()
    rows = [
        ("server start-up (20 tools)", lambda: time_server_start(args.python), None),
        ("audit, default", lambda: time_audit(args.python, []), TARGET),
        ("audit, --call-read-only", lambda: time_audit(args.python, ["--call-read-only"]), TARGET),
    ]
    print(f"{'measure':<30} {'best':>7} {'median':>7}  target")
    failed = False
    for name, measure, target in rows:
        times = [measure() for _ in range(args.runs)]
        best, median = min(times), statistics.median(times)
        verdict = "" if target is None else (f"<= {target:g} s " + ("ok" if median <= target else "MISSED"))
        failed |= target is not None and median > target
        print(f"{name:<30} {best:>6.2f}s {median:>6.2f}s  {verdict}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
