"""Keeps a process running: restarts it when it dies, forwards SIGTERM/SIGINT when asked to stop.

A Dramatiq main process stops all its workers when one of them dies (a crashing browser, a poison
message), so a pool needs something that starts it again: a container's restart policy, systemd, or
this (`lps worker POOL --supervise`, and `lps dev`).
"""

from __future__ import annotations

import logging
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from types import FrameType

log = logging.getLogger(__name__)

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

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGINT)}
    failures = 0
    try:
        while True:
            started = time.monotonic()
            child = subprocess.Popen(list(command), env=dict(env))
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
