"""`embedded_mongo` without a port tries another where its server dies before listening on the one it picked.

A port the kernel hands out may be taken between the probe closing it and the server binding it: CI once lost the
benchmark's store to "address already in use" so. Here the first port picked is an outgoing connection's local
port, as it was there (a listening socket would not stop the server, which binds with SO_REUSEPORT).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest
from pymongo import MongoClient

from embedded_store import server
from tests.ports import free_port


@contextlib.contextmanager
def _outgoing_connection_from(port: int) -> Iterator[None]:
    """A connection on loopback whose local port is `port`, as an outgoing connection takes an ephemeral one."""
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.socket() as client:
        client.bind(("127.0.0.1", port))
        client.connect(listener.getsockname())
        accepted, _ = listener.accept()
        with accepted:
            yield


@pytest.mark.processes
def test_a_server_whose_picked_port_is_taken_starts_on_another(monkeypatch: pytest.MonkeyPatch):
    taken, fresh = free_port(), free_port()
    picked = iter([taken, fresh])
    monkeypatch.setattr(server, "free_port", lambda host="127.0.0.1": next(picked))
    with _outgoing_connection_from(taken), server.embedded_mongo() as url:
        assert f":{fresh}/" in url
        with MongoClient(url, serverSelectionTimeoutMS=5_000) as client:
            assert client.admin.command("ping")["ok"] == 1


@pytest.mark.processes
def test_a_port_the_caller_gave_is_not_swapped_for_another():
    port = free_port()
    with (
        _outgoing_connection_from(port),
        pytest.raises(RuntimeError, match=f"did not start on 127.0.0.1:{port}"),
        server.embedded_mongo(port),
    ):
        pass
