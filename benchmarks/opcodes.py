"""Bytecode instructions each transcript shard executes: a measure of the Python work that does
not move with the machine's load (timings on this shared VM vary by 30 % from one minute to the
next; these counts are the same on every run).

    python benchmarks/opcodes.py FILE.jsonl [--tree PATH]

Run it on a small transcript (a few thousand lines: tracing every instruction is ~50x slower).
`--tree` counts another checkout (a `git worktree add`), for an A/B of a change that moves work
between the shards or removes some. Work done in C (msgspec, regular expressions) is not counted:
compare a change's counts and its `ab.py` timings together.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_RUN = r'''
import sys
from mcplint import engine
from mcplint.capture import lint, split
from mcplint.config import Config
assert engine.__file__.startswith(sys.argv[2]), engine.__file__
plan = engine.Plan.build(Config(select=["ALL"]))
parent, child = split.split_rules(plan.rules)
lint._shard_found(sys.argv[1], sys.argv[1], plan, frozenset(parent))  # imports and caches warm
count = [0]

def tracer(frame, event, arg):
    frame.f_trace_opcodes = True
    return local

def local(frame, event, arg):
    if event == "opcode":
        count[0] += 1
    return local

for name, codes in (("parent", parent), ("child", child)):
    count[0] = 0
    sys.settrace(tracer)
    try:
        lint._shard_found(sys.argv[1], sys.argv[1], plan, frozenset(codes))
    finally:
        sys.settrace(None)
    print(f"{name}: {len(codes)} rules, {count[0]:,} instructions")
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--tree", default=str(ROOT), help="the checkout to count (default: this one)")
    options = parser.parse_args()
    tree = Path(options.tree).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        # `mcplint` and `mcplint_rules` (the rules/ folder under its package name) of that tree first.
        (Path(scratch) / "mcplint").symlink_to(tree / "mcplint")
        (Path(scratch) / "mcplint_rules").symlink_to(tree / "rules")
        env = {**os.environ, "PYTHONPATH": scratch, "PYTHONDONTWRITEBYTECODE": "1"}
        subprocess.run([sys.executable, "-c", _RUN, options.path, scratch], env=env, cwd=scratch, check=True)


if __name__ == "__main__":
    main()
