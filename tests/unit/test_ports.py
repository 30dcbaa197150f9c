"""The ports the tests give their servers: outside the range outgoing connections take theirs from."""

import socket
from pathlib import Path

from tests import ports


def ephemeral_range() -> range:
    first, last = (int(bound) for bound in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    return range(first, last + 1)


def test_a_port_given_is_below_the_kernels_ephemeral_range():
    assert ports.free_port() < ephemeral_range().start
    assert ephemeral_range().start >= ports.FIRST_PORT + ports.PORTS_PER_WORKER * ports.WORKER_BLOCKS  # every block


def test_a_port_something_listens_on_is_not_given():
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", ports.free_port()))
        listening.listen()
        taken = listening.getsockname()[1]
        given = [ports.free_port() for _ in range(ports.PORTS_PER_WORKER)]
    assert taken not in given
    assert len(set(given)) > ports.PORTS_PER_WORKER // 2  # handed out in turn, not the same few again
