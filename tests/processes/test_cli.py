"""The `lps` command as an operator runs it, in real subprocesses."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import aiohttp
import pytest

from embedded_store.server import wait_for_port
from infra.settings import Settings
from tests.ports import free_port

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

LPS = [sys.executable, "-m", "tools.lps"]


async def test_lps_gateway_starts_embedded_mongo_and_serves_the_contract(settings: Settings):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "LPS_MONGO_URL"}
    env |= {"LPS_HTTP_PORT": str(port), "LPS_QUEUE_PREFIX": settings.queue_prefix, "LPS_MONGO_DB": settings.mongo_db}
    gateway = await asyncio.create_subprocess_exec(*LPS, "gateway", env=env, stderr=subprocess.PIPE)
    try:
        assert await asyncio.to_thread(wait_for_port, "127.0.0.1", port, 40), "gateway did not listen"
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            posted = await (
                await http.post("/v1/lps/search", json={"products": [{"product_code": "CLI-1", "keyword": "k"}]})
            ).json()
            job_id = posted["jobs"][0]["job_id"]
            job = await (await http.get(f"/v1/lps/jobs/{job_id}")).json()
            ready = await (await http.get("/readyz")).json()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: lps\r\nX-Note: \x7f\r\n\r\n")  # a byte its parser refuses
        malformed = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        assert posted["result"] == 0
        assert job["job"]["status"] == "PENDING"
        assert ready["checks"] == {"mongo": "ok", "rabbitmq": "ok"}
    finally:
        gateway.terminate()
        _, raw_stderr = await asyncio.wait_for(gateway.communicate(), timeout=20)
    stderr = raw_stderr.decode()
    assert gateway.returncode == 0, stderr
    assert "started the embedded MongoDB-compatible server" in stderr
    # The gateway's own connections (service/http_server.py): the envelope and a line, not aiohttp's text and traceback.
    assert b"\r\nServer: lps\r\n" in malformed
    assert b'"result": 101' in malformed
    assert "refused a malformed HTTP request from 127.0.0.1: Invalid header value char" in stderr
    assert "Traceback" not in stderr


def test_ensure_rabbitmq_reports_a_reachable_broker():
    done = subprocess.run([*LPS, "ensure-rabbitmq"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "RabbitMQ: reachable" in done.stdout


@pytest.mark.parametrize(
    ("urls", "code", "said"),
    [
        ("amqp://guest:guest@127.0.0.1:5672/;amqp://guest:guest@127.0.0.2:5672/", 0, "1 of 2 nodes reachable"),
        ("amqp://guest:guest@127.0.0.2:5672/;amqp://guest:guest@127.0.0.3:5672/", 1, "none of the 2 RabbitMQ nodes"),
    ],
)
def test_ensure_rabbitmq_takes_several_nodes_and_one_answering_is_enough(urls: str, code: int, said: str):
    env = os.environ | {"LPS_AMQP_URL": urls}
    done = subprocess.run([*LPS, "ensure-rabbitmq"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == code, done
    assert said in done.stdout + done.stderr


def test_ensure_rabbitmq_says_clearly_when_a_remote_broker_is_unreachable():
    # Loopback, but not this machine's broker address: nothing listens there (no traffic leaves the machine).
    env = os.environ | {"LPS_AMQP_URL": "amqp://guest:guest@127.0.0.2:5672/"}
    started = time.monotonic()
    done = subprocess.run([*LPS, "ensure-rabbitmq"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 1
    assert "not reachable" in done.stderr
    assert time.monotonic() - started < 30
