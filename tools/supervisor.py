"""Runs a pool's Dramatiq process: stops it once however often it is asked, and restarts it when it dies.

A Dramatiq main process stops all its workers when one of them dies (a crashing browser, a poison
message), so a pool needs something that starts it again: a container's restart policy, systemd, or
this (`lps worker POOL --supervise`, and `lps dev`). Without `--supervise`, `lps worker` runs it here too,
without restarts, for the one stop it gives any number of signals.

Children die with their parent: `die_with_parent` asks Linux for a parent-death signal (PR_SET_PDEATHSIG),
so even a supervisor or `lps dev` killed with SIGKILL leaves nothing running.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from types import FrameType

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


#: Exit codes that no restart can fix (Dramatiq: 2 = the broker module failed to import).
FATAL_EXIT_CODES = frozenset({2})
MAX_RESTART_DELAY = 30.0
#: Signals that stop a supervised process (a closed terminal's SIGHUP too: to Dramatiq's main process SIGHUP means
#: "reload", so it is never passed on as itself).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


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
    workers", which skipped their orderly stop and could leave them hanging). Whatever of the child's session is
    still running `stop_within` seconds after the first signal is killed, and so is anything it left behind when it
    exits: a stop ends every process within that bound.
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
            time.sleep(delay)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _wait(child: subprocess.Popen[bytes], stop_at: Callable[[], float | None]) -> int:
    """Wait for the child; past the stop deadline, kill its session. Either way, nothing of its session outlives it."""
    while True:
        try:
            code = child.wait(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            deadline = stop_at()
            if deadline is not None and time.monotonic() > deadline:
                log.warning("pid %d did not stop in time: its session is killed", child.pid)
                _kill_session(child.pid)
    _kill_session(child.pid)  # worker processes it left behind, if any
    return code


def _kill_session(leader: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
