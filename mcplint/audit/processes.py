"""The processes an audited stdio server leaves: found in /proc, stopped, reaped (Linux; elsewhere
the helpers find nothing and the server's process group is all there is).

``Adoption`` makes mcplint a child subreaper while servers run (see mcplint.audit.stdio): a
daemon that double-forks, calls setsid, closes every descriptor and clears its environment is
re-parented to mcplint instead of init, and is told apart from mcplint's own children.
"""

from __future__ import annotations

import os
import sys

PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37  # prctl(2), Linux 3.4+


# -- /proc helpers (Linux; elsewhere they find nothing and the process group is all there is) --------
def proc_stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces


def start_time(pid: int) -> str | None:
    fields = proc_stat(pid)
    return fields[19] if fields and len(fields) > 19 else None


def start_tick(pid: int) -> int | None:
    started = start_time(pid)
    return int(started) if started is not None and started.isdigit() else None


def zombie(pid: int) -> bool:
    fields = proc_stat(pid)
    return fields is None or fields[0] in ("Z", "X")


def pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def process_table() -> dict[int, list[str]]:
    """Every process's /proc/<pid>/stat fields after the name: [0] state, [1] ppid, [2] pgid,
    [3] session, [19] start time (clock ticks since boot)."""
    table = {}
    for pid in pids():
        fields = proc_stat(pid)
        if fields and len(fields) > 19 and fields[1].isdigit():
            table[pid] = fields
    return table


def descendants(root: int) -> set[int]:
    return descendants_in(process_table(), [root])


def descendants_in(table: dict[int, list[str]], roots) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, fields in table.items():
        children.setdefault(int(fields[1]), []).append(pid)
    found, todo = set(), list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def session_members(table: dict[int, list[str]], leader: int) -> set[int]:
    """The processes of the session ``leader`` created (the server's: start_new_session), also those
    that left its process group or lost their parent: only ``setsid`` leaves a session."""
    wanted = str(leader)
    return {pid for pid, fields in table.items() if fields[3] == wanted}


def mcplint_session() -> str | None:
    try:
        return str(os.getsid(0))
    except OSError:
        return None


def kill(pids, sig: int) -> None:
    """Signal each of ``pids`` (the server's, tracked) and, when it is outside mcplint's session,
    its whole process group: a daemon that called setsid leads a group its forks stay in, even
    after the leader exited. One that forks and exits every few milliseconds (its pid changing
    faster than /proc can be read) is caught only so; signalling a group is atomic."""
    own_session = os.getsid(0)
    for pid in pids:
        try:
            group = os.getpgid(pid)
            os.kill(pid, sig)
            if group == pid or (group > 1 and os.getsid(pid) != own_session):
                os.killpg(group, sig)
        except (ProcessLookupError, PermissionError):
            pass


def live_groups(groups: set[tuple[str, str]]) -> set[int]:
    """The process groups among ``groups`` ((pgid, session) pairs seen on the server's processes)
    that still have a member in that same session: never mcplint's own session or group."""
    own = (str(os.getpgid(0)), mcplint_session())
    found = set()
    for fields in process_table().values():
        pair = (fields[2], fields[3])
        if pair in groups and pair[0] != own[0] and pair[1] != own[1] and int(pair[0]) > 1:
            found.add(int(pair[0]))
    return found


def kill_groups(groups, sig: int) -> None:
    for group in groups:
        try:
            os.killpg(group, sig)
        except (ProcessLookupError, PermissionError):
            pass


def reap(tracked: dict[int, str]) -> None:
    """waitpid(WNOHANG) each of ``tracked`` (pid -> start time) that is a zombie child of mcplint
    outside its session (so never a pool worker or a forked splitter: multiprocessing and
    mcplint.capture.split wait for those) and not a server (its Popen waits for it)."""
    me, own_session, servers = str(os.getpid()), mcplint_session(), Adoption.server_pids()
    for pid, started in list(tracked.items()):
        fields = proc_stat(pid)
        if (not fields or len(fields) <= 19 or fields[0] != "Z" or fields[1] != me or fields[19] != started
                or fields[3] == own_session or pid in servers):
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


# -- the child subreaper ------------------------------------------------------------------------------
LIBC = None


def prctl(option: int, argument) -> bool:
    """prctl(option, argument, 0, 0, 0) == 0; False where there is no prctl (not Linux, no libc)."""
    global LIBC
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        if LIBC is None:
            LIBC = ctypes.CDLL(None, use_errno=True)
        zero = ctypes.c_ulong(0)
        return LIBC.prctl(ctypes.c_int(option), argument, zero, zero, zero) == 0
    except (OSError, AttributeError, ImportError, TypeError, ValueError):
        return False


def subreaper() -> bool | None:
    """Whether this process is a child subreaper (None: cannot tell)."""
    try:
        import ctypes

        value = ctypes.c_int(0)
        return bool(value.value) if prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(value)) else None
    except ImportError:
        return None


def set_subreaper(on: bool) -> bool:
    try:
        import ctypes

        return prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1 if on else 0))
    except ImportError:
        return False


class Adoption:
    """From the start of the first server to the close of the last one running: mcplint is a child
    subreaper, and the processes re-parented to it (``orphans``) are the servers' escaped ones."""

    current: "Adoption | None" = None

    def __init__(self) -> None:
        table = process_table()
        me = str(os.getpid())
        # mcplint's children before any server ran (an embedding program's own): never adopted ones
        self.before = {(pid, fields[19]) for pid, fields in table.items() if fields[1] == me}
        self.servers: set[tuple[int, str | None]] = set()  # every server started meanwhile: (pid, start time)
        self.first: int | None = None  # the first server's start time, in clock ticks
        self.flagged = subreaper() is False and set_subreaper(True)  # ours to clear again

    @classmethod
    def begin(cls) -> "Adoption":
        if cls.current is None:
            cls.current = cls()
        return cls.current

    @classmethod
    def end(cls) -> None:
        adoption, cls.current = cls.current, None
        if adoption is not None and adoption.flagged:
            set_subreaper(False)

    @classmethod
    def server_pids(cls) -> set[int]:
        return {pid for pid, _ in cls.current.servers} if cls.current is not None else set()

    @classmethod
    def orphans(cls, table: dict[int, list[str]], running) -> list[int]:
        """The processes mcplint adopted (its children outside its session, no server, not a child
        before the first server started, started after it) that descend from none of ``running``
        (the other servers still running): each started before every one of them did. A process
        started after one of them is left for a later close (one that may be that server's own),
        and the last close takes them all. Zombies included, to be reaped."""
        adoption = cls.current
        if adoption is None or adoption.first is None:
            return []
        me, own_session = str(os.getpid()), mcplint_session()
        servers = {pid for pid, _ in adoption.servers}
        oldest = None  # the earliest start of the other servers: an adopted process must predate it
        for process in running:
            started = getattr(process, "_started", None)
            if started is None:
                return []  # one of them of unknown age: nothing can be told apart from its own
            oldest = started if oldest is None else min(oldest, started)
        found = []
        for pid, fields in table.items():
            if fields[1] != me or fields[3] == own_session or pid in servers or not fields[19].isdigit():
                continue
            started = int(fields[19])
            if (pid, fields[19]) in adoption.before or started < adoption.first:
                continue
            if oldest is not None and started >= oldest:
                continue  # it may descend from a server still running (same clock tick included)
            found.append(pid)
        return found


def pipe_holders(inodes: set[int]) -> set[int]:
    """Processes (of any depth, in any group) with one of these pipes open."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    holders = set()
    for pid in pids():
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # another user's process, or gone
        for name in names:
            try:
                if os.readlink(f"/proc/{pid}/fd/{name}") in wanted:
                    holders.add(pid)
                    break
            except OSError:
                continue
    return holders


def marked(marker: bytes) -> set[int]:
    """Processes whose environment holds ``marker`` (NAME=VALUE)."""
    found = set()
    for pid in pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if marker in handle.read().split(b"\0"):
                    found.add(pid)
        except OSError:
            continue
    return found
