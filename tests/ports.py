"""Loopback ports for the servers the tests start, from outside the kernel's ephemeral range.

A port `bind(("127.0.0.1", 0))` hands out lies in the ephemeral range (32768-60999 here), the range every outgoing
connection takes its local port from. Between the probe closing such a port and a child process binding it, a
connection to RabbitMQ or MongoDB, this worker's or another's, may take it: CI once saw `lps dev`'s demo shop fail
with "address already in use" that way. The ports here come from below that range, a block of its own for each of
the first four xdist workers, handed out in turn from a point the process id picks and checked free, so neither an
outgoing connection nor another worker is given one of them.
"""

from __future__ import annotations

import itertools
import os
import socket

#: Above MongoDB's 27017 and RabbitMQ's 25672 / 257xx distribution ports, below the ephemeral range.
FIRST_PORT = 28_000
PORTS_PER_WORKER = 1_000
#: The blocks that fit below 32768, where the ephemeral range starts (scripts/test runs four workers); a fifth worker
#: shares the first one's block, where the check that a port is free is all that keeps them apart.
WORKER_BLOCKS = 4


def _worker_index() -> int:
    """`gw3` -> 3; 0 outside xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw") or 0)


_FIRST_OF_WORKER = FIRST_PORT + PORTS_PER_WORKER * (_worker_index() % WORKER_BLOCKS)
_BLOCK = range(_FIRST_OF_WORKER, _FIRST_OF_WORKER + PORTS_PER_WORKER)
#: Processes that share a block (a fifth worker, a plain pytest run beside scripts/test) start at different points.
_START = os.getpid() % PORTS_PER_WORKER
_turns = itertools.cycle([*_BLOCK[_START:], *_BLOCK[:_START]])


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """The next port of this worker's block that nothing listens on."""
    for _ in range(PORTS_PER_WORKER):
        port = next(_turns)
        if _bindable(port):
            return port
    raise RuntimeError(f"no free loopback port in {_BLOCK.start}..{_BLOCK.stop - 1}")
