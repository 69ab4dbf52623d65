"""CPU seconds of each shard of a split transcript run (mcplint/capture/split.py), each shard run
alone in this process, best of N: where the time of a big transcript goes, rule set by rule set.

    python benchmarks/shards.py FILE.jsonl [--without MCP420,MCP421] [--runs 3]

`--without` drops rules from both shards (what would they save?); `--select MCP101` style runs
(no traffic rule) are `--without ALL`: the cost of reading, parsing and the session model.
"""

from __future__ import annotations

import argparse
import gc
import time

from mcplint import engine
from mcplint.capture import lint, split
from mcplint.config import Config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--without", default="", help="rule codes to leave out, comma-separated, or ALL")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    plan = engine.Plan.build(Config(select=["ALL"]))
    parent, child = split.split_rules(plan.rules)
    dropped = parent | child if options.without == "ALL" else set(filter(None, options.without.split(",")))
    gc.disable()  # as engine._run_capture lints
    for name, codes in (("parent", parent - dropped), ("child", child - dropped)):
        best = float("inf")
        for _ in range(options.runs):
            start = time.process_time()
            lint._shard_found(options.path, options.path, plan, frozenset(codes))
            best = min(best, time.process_time() - start)
        print(f"{name}: {len(codes)} rules, {best:.2f} s CPU")


if __name__ == "__main__":
    main()
