"""Lint one big transcript on two cores: each process streams the same file and runs half
of the traffic rules.

A transcript is one session, read in order, so its records cannot be dealt out to workers
the way a folder's files are. Its rules can: every rule's findings depend only on the
records and on the session model both processes build alike, so a forked child runs one
shard of the rules over the file while the parent runs the other, and the parent adds the
child's selected findings (each rule's own, already deduplicated and capped, which is why
the report is the one a single process gives: a rule's findings all come from one process
and the report is sorted by location and rule).

Rules that share state another rule updates lazily (``first_of_response``, ``session_ids``:
the first caller on a record moves them on) stay together in the parent, with the rules
that read ``content``'s walk of each result (one walk, cached, serves them all) and the
manifest rules of tools/list pages, and the rules that read HTTP headers (lower-cased once per
record, for the parent's HTTP rules). The child gets the other rules with a ``check_exchange``
hook but those of PARENT_FOR_BALANCE: about half of the work (the benchmark transcript's shards take
within 1 % of each other).

Only regular files of at least MIN_BYTES, with two usable CPUs, fork on a single-threaded
process, never inside a pool worker (the folder's pool already uses the cores), and never
with MCPLINT_JOBS=1. A child that fails in any way is not trusted: the parent runs its
shard itself, so an error surfaces as it would serially.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading

MIN_BYTES = 4 << 20  # below this the rules take less than a fork and a second read cost
SHARED_STATE = ("first_of_response", "session_ids")  # lazily advanced by the rules that call them
SHARED_WALK = ("content",)  # mcplint.capture.content: one cached walk of each result, for the content rules
# http.header: each record's header names are lower-cased once, on the first ask; the HTTP
# rules ask of every record in the parent, so a rule reading headers costs less there.
SHARED_FACTS = ("header",)
# Child rules the parent runs anyway, so the two shards take about as long: measured on the
# benchmark transcript with benchmarks/shards.py (2026-11-29: parent 2.10 s, child 2.68 s of CPU;
# with these two in the parent, 2.40 s and 2.41 s).
PARENT_FOR_BALANCE = frozenset({"MCP713", "MCP637"})

in_pool_worker = False  # set by mcplint.parallel in its workers


def shards(plan, size: int) -> tuple[frozenset[str], frozenset[str]] | None:
    """(the parent's rule codes, the child's) when splitting pays here, else None."""
    from mcplint.parallel import jobs

    if size < MIN_BYTES or in_pool_worker or jobs() < 2:
        return None
    if not hasattr(os, "fork") or sys.platform == "darwin" or threading.active_count() > 1:
        return None
    return split_rules(plan.rules)


def split_rules(rules) -> tuple[frozenset[str], frozenset[str]] | None:
    from mcplint.capture.content_rule import ContentRule
    from mcplint.rule import TrafficRule

    parent, child = set(), set()
    for rule in rules:
        kind = type(rule)
        module = sys.modules.get(kind.__module__)
        shared = module is not None and any(name in vars(module) for name in SHARED_STATE + SHARED_WALK + SHARED_FACTS)
        if (isinstance(rule, TrafficRule) and not shared and rule.code not in PARENT_FOR_BALANCE and kind.check_exchange is not ContentRule.check_exchange
                and kind.check_exchange is not TrafficRule.check_exchange):
            child.add(rule.code)
        else:
            parent.add(rule.code)
    return (frozenset(parent), frozenset(child)) if child else None


class Child:
    """The forked process running ``work()`` (which returns something picklable)."""

    def __init__(self, work) -> None:
        self._work = work
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops it
            status = 1
            try:
                payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
                status = 0
            except BaseException:  # the parent redoes the work and meets the error itself
                pass
            finally:
                os._exit(status)
        os.close(write_end)
        self._read = read_end

    def result(self):
        """What ``work()`` returned in the child; if the child failed, ``work()`` run here."""
        with os.fdopen(self._read, "rb") as handle:
            payload = handle.read()
        self._read = None
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if status == 0 and payload:
            try:
                return pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a truncated payload: redo it here
                pass
        return self._work()

    def stop(self) -> None:
        """The parent failed or was interrupted first: end the child and reap it."""
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            self.pid = 0
        if self._read is not None:
            os.close(self._read)
            self._read = None
