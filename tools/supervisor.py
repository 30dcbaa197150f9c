"""Keeps a process running: restarts it when it dies, forwards SIGTERM/SIGINT when asked to stop.

A Dramatiq main process stops all its workers when one of them dies (a crashing browser, a poison
message), so a pool needs something that starts it again: a container's restart policy, systemd, or
this (`lps worker POOL --supervise`, and `lps dev`).

Children die with their parent: `die_with_parent` asks Linux for a parent-death signal (PR_SET_PDEATHSIG),
so even a supervisor or `lps dev` killed with SIGKILL leaves nothing running.
"""

from __future__ import annotations

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


def supervise(command: Sequence[str], env: Mapping[str, str], *, name: str, restart_delay: float = 1.0) -> int:
    """Run `command` until asked to stop; return its last exit code."""
    stopping = False
    child: subprocess.Popen[bytes] | None = None

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    def hang_up(_signum: int, frame: FrameType | None) -> None:
        # A closed terminal stops the pool; forwarded as SIGTERM: to a Dramatiq main process SIGHUP means "reload".
        stop(signal.SIGTERM, frame)

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGINT)}
    previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, hang_up)
    failures = 0
    try:
        while True:
            started = time.monotonic()
            child = subprocess.Popen(list(command), env=dict(env), preexec_fn=die_with_parent())
            code = child.wait()
            if stopping or code == 0 or code in FATAL_EXIT_CODES:
                return code
            # A process that ran a while before dying starts over with a short delay.
            failures = 1 if time.monotonic() - started > 60 else failures + 1
            delay = min(restart_delay * 2 ** (failures - 1), MAX_RESTART_DELAY)
            log.warning("%s exited with %d; restarting in %.1fs", name, code, delay)
            time.sleep(delay)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
