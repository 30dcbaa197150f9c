"""An outbox pool refuses to sign deliveries with an empty key: LPS_OUTBOX_URL without LPS_OUTBOX_SECRET stops it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from types import SimpleNamespace
from typing import NoReturn

import pytest
from dramatiq.brokers.stub import StubBroker

from actors.worker import SETUP_FAILED, UnsignedOutboxRefused
from infra.settings import Settings
from schemas.codes import JobType

UNSIGNED = "http://127.0.0.1:9/results"


@pytest.mark.processes
async def test_an_outbox_pool_without_a_signing_secret_refuses_to_start_and_says_why(settings: Settings):
    unsigned = settings.with_overrides(outbox_url=UNSIGNED, outbox_secret="")
    env = {key: value for key, value in os.environ.items() if key != "LPS_OUTBOX_SECRET"} | unsigned.to_env()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tools.cli", "worker", "outbox", "--supervise",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await asyncio.wait_for(process.communicate(), timeout=60)  # --supervise does not restart it
    text = output.decode(errors="replace")

    assert process.returncode == 2, text
    assert "LPS_OUTBOX_URL is set but LPS_OUTBOX_SECRET is not" in text


@pytest.mark.parametrize(
    ("queues", "allow_unsigned", "boots"),
    [
        ("search", False, True),  # the search pool never signs: no secret needed
        ("outbox", True, True),  # LPS_OUTBOX_ALLOW_UNSIGNED=1: delivers unsigned, as asked
        ("outbox", False, False),
        ("all", False, False),  # a pool that consumes every declared queue, the outbox's among them
    ],
)
def test_only_a_pool_that_would_deliver_unsigned_is_stopped_at_boot(
    queues: str, allow_unsigned: bool, boots: bool, monkeypatch: pytest.MonkeyPatch
):
    """What the refusing process above and a starting pool have in common, without starting one: the check at the
    worker's boot, given the queues the pool consumes."""
    settings = Settings(outbox_url=UNSIGNED, outbox_secret="", outbox_allow_unsigned=allow_unsigned)
    broker = StubBroker()
    for queue in settings.queues():
        broker.declare_queue(queue)
    whitelist = set(settings.job(JobType[queues.upper()]).queues) if queues != "all" else None
    exits: list[int] = []

    def record_exit(code: int) -> NoReturn:
        exits.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", record_exit)
    worker = SimpleNamespace(consumer_whitelist=whitelist)
    with contextlib.suppress(SystemExit):
        UnsignedOutboxRefused(settings).before_worker_boot(broker, worker)  # type: ignore[arg-type]

    assert exits == ([] if boots else [SETUP_FAILED])
