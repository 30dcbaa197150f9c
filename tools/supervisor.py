"""Runs a pool's Dramatiq process: stops it once however often it is asked, and restarts it when it dies.

A Dramatiq main process stops all its workers when one of them dies (a crashing browser, a poison
message), so a pool needs something that starts it again: a container's restart policy, systemd, or
this (`lps worker POOL --supervise`, and `lps dev`). Without `--supervise`, `lps worker` runs it here too,
without restarts, for the one stop it gives any number of signals.

Children die with their parent: `die_with_parent` asks Linux for a parent-death signal (PR_SET_PDEATHSIG),
so even a supervisor or `lps dev` killed with SIGKILL leaves nothing running. What a stop has to kill, it kills
as a whole tree (`kill_trees`): every descendant, whatever session it moved to (Dramatiq's processes run in a
session of their own, Chromium in yet another).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import FrameType

import psutil

from infra.settings import SHUTDOWN_RECORDING_TIME

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A `preexec_fn` that has the child sent `signum` when its parent dies (None where Linux's prctl is missing).

    Chosen over a watchdog: the kernel sends the signal however the parent ends (SIGKILL included), with no polling
    thread or extra process that could itself be killed. The signal (SIGTERM) lets the child stop in order, and a
    child whose parent died before the call (a race at start-up) exits at once. libc is looked up here, in the
    parent: the function the child runs between fork and exec only calls it.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


class ProcessTree:
    """A process and every descendant seen under it so far, whatever session or group they moved to: what is left of
    them can be killed even once the root exited and they became orphans (which no process tree shows any more).

    psutil's Process remembers when each process started, so signalling one later never reaches a newer process that
    got its pid. Look while the root is not reaped yet (its pid still its own)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.known: dict[int, psutil.Process] = {}
        with contextlib.suppress(psutil.Error):
            self.known[pid] = psutil.Process(pid)

    def look(self) -> None:
        """Note the root's descendants as they are now."""
        root = self.known.get(self.pid)
        if root is None:
            return
        with contextlib.suppress(psutil.Error):
            for process in root.children(recursive=True):
                self.known.setdefault(process.pid, process)

    def processes(self) -> list[psutil.Process]:
        """Every process seen, the root first (parents before their children)."""
        return list(self.known.values())


#: Passes of `kill_trees` looking for processes started while the tree was being stopped (each pass stops what it
#: finds: a second pass finds nothing new, unless a fork raced the first).
FREEZE_PASSES = 5


def kill_trees(roots: Iterable[psutil.Process]) -> None:
    """SIGKILL every root and every descendant it has, tree by tree in the order given.

    Every process is stopped first (SIGSTOP), its children looked up after, until a pass finds no new one: a stopped
    process can start nothing more, print nothing and reach no store, so no process runs on between the first kill
    and the last (a pool never works on against a store already gone), and none started meanwhile is missed.
    """
    frozen: dict[int, psutil.Process] = {}
    found = list(roots)
    for _ in range(FREEZE_PASSES):
        for process in found:
            if process.pid in frozen:
                continue
            try:
                process.suspend()
            except psutil.Error:
                continue  # gone, or its pid is another process's now: neither it nor that one's children are ours
            frozen[process.pid] = process
        parents = set(frozen)
        found = [
            process
            for process in psutil.process_iter(["ppid"])
            if process.info["ppid"] in parents and process.pid not in frozen
        ]
        if not found:
            break
    for process in frozen.values():
        with contextlib.suppress(psutil.Error):
            process.kill()


#: Past a pool's grace and the recording time, the seconds a worker process has to end itself (actors.middleware
#: StopOnce) before `lps worker` kills whatever of the pool is left.
STOP_MARGIN = 2.0


def pool_stop_bound(grace: float) -> float:
    """Seconds from the first stop signal until every process of a pool (`lps worker`) is gone: its grace for jobs in
    flight, the time to record what it gave back, and a margin; then the supervisor kills what is left."""
    return grace + SHUTDOWN_RECORDING_TIME + STOP_MARGIN


#: Exit codes that no restart can fix (Dramatiq: 2 = the broker module failed to import).
FATAL_EXIT_CODES = frozenset({2})
MAX_RESTART_DELAY = 30.0
#: Signals that stop a supervised process (a closed terminal's SIGHUP too: to Dramatiq's main process SIGHUP means
#: "reload", so it is never passed on as itself), `lps dev` and `lps mongo`.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def ignore_stop_signals(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """For a process that has stopped what it ran: later stop signals have nothing left to stop, so they are ignored
    for the rest of its short life. Python's own Ctrl-C would raise KeyboardInterrupt wherever the interpreter's exit
    is, printing a traceback. `loop`: the event loop whose handlers hold them (removed, or closing it would put
    Python's back)."""
    for signum in STOP_SIGNALS:
        if loop is not None:
            loop.remove_signal_handler(signum)
        signal.signal(signum, signal.SIG_IGN)


def supervise(
    command: Sequence[str],
    env: Mapping[str, str],
    *,
    name: str,
    stop_within: float,
    restart: bool = True,
    restart_delay: float = 1.0,
) -> int:
    """Run `command` until asked to stop (and, with `restart`, start it again when it dies); return its last exit code.

    The child runs in a session of its own, so signals sent to this process's group (a terminal's Ctrl-C, `kill --
    -PGID`, a closed terminal) reach this process only, and stopping is idempotent: the first SIGTERM, SIGINT or
    SIGHUP is passed on as one SIGTERM, any later one changes nothing (Dramatiq takes a second SIGTERM as "kill the
    workers", which skipped their orderly stop and could leave them hanging). Whatever of the child's tree is
    still running `stop_within` seconds after the first signal is killed, and so is anything it left behind in its
    session when it exits; a stop during a restart's delay starts nothing more: a stop ends every process within
    that bound.
    """
    stop_at: float | None = None
    child: subprocess.Popen[bytes] | None = None

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stop_at
        if stop_at is not None:
            return  # already stopping: one SIGTERM was passed on, the deadline stands
        stop_at = time.monotonic() + stop_within
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)

    previous = {signum: signal.signal(signum, stop) for signum in STOP_SIGNALS}
    failures = 0
    try:
        while True:
            started = time.monotonic()
            child = subprocess.Popen(list(command), env=dict(env), preexec_fn=die_with_parent(), start_new_session=True)
            if stop_at is not None:  # asked to stop while it was being started
                child.send_signal(signal.SIGTERM)
            code = _wait(child, lambda: stop_at)
            if stop_at is not None or code == 0 or code in FATAL_EXIT_CODES or not restart:
                return code
            # A process that ran a while before dying starts over with a short delay.
            failures = 1 if time.monotonic() - started > 60 else failures + 1
            delay = min(restart_delay * 2 ** (failures - 1), MAX_RESTART_DELAY)
            log.warning("%s exited with %d; restarting in %.1fs", name, code, delay)
            if _stopped_within(delay, lambda: stop_at is not None):
                return code
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


#: Seconds between looks at a child (and at a stop) while waiting: a stop is noticed within this.
POLL = 0.1


def _stopped_within(seconds: float, stopped: Callable[[], bool]) -> bool:
    """Sleep up to `seconds`, in short steps; True as soon as `stopped()` is (a signal handler cannot cut time.sleep
    short: Python resumes it)."""
    deadline = time.monotonic() + seconds
    while not stopped():
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


def _wait(child: subprocess.Popen[bytes], stop_at: Callable[[], float | None]) -> int:
    """Wait for the child; past the stop deadline, kill its whole tree (its processes in other sessions too, e.g.
    Chromium). Either way, nothing of its session outlives it."""
    killed = False
    while True:
        try:
            code = child.wait(timeout=POLL)
            break
        except subprocess.TimeoutExpired:
            deadline = stop_at()
            if not killed and deadline is not None and time.monotonic() > deadline:
                log.warning("pid %d did not stop in time: it and every process it started are killed", child.pid)
                kill_trees(ProcessTree(child.pid).processes())  # not reaped yet: its pid is still its own
                killed = True
    _kill_session(child.pid)  # worker processes it left behind, if any
    return code


def _kill_session(leader: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
