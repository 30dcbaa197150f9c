"""An outbox pool refuses to sign deliveries with an empty key: LPS_OUTBOX_URL without LPS_OUTBOX_SECRET stops it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from dramatiq.brokers.stub import StubBroker

from actors.worker import SETUP_FAILED, UnsignedOutboxRefused
from infra.settings import UNSIGNED_OUTBOX_REFUSED, Settings
from schemas.codes import JobType
from tests.unsigned_outbox import UNSIGNED, unsigned_env
from tools import cli
from tools.cli import worker_command


@pytest.fixture
def root_logging_restored() -> Iterator[None]:
    """`lps` run in this process configures the root logger (tools/cli.py `main`), whose handlers here are pytest's
    own, kept for the session: they get their level, filters and formats back, or later tests' captured logs would
    pass through LPS's filters."""
    root = logging.getLogger()
    level, handlers = root.level, {handler: (list(handler.filters), handler.formatter) for handler in root.handlers}
    yield
    root.setLevel(level)
    for handler, (filters, formatter) in handlers.items():
        handler.filters[:] = filters
        handler.setFormatter(formatter)


@pytest.mark.usefixtures("root_logging_restored")
def test_lps_worker_refuses_an_outbox_pool_without_a_signing_secret_before_starting_it(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """Outside the processes tier: starting any process here would fail the test (tests/conftest.py)."""
    monkeypatch.delenv("LPS_OUTBOX_SECRET", raising=False)
    for key, value in unsigned_env(settings).items():
        monkeypatch.setenv(key, value)

    assert cli.main(["worker", "outbox", "--supervise"]) == SETUP_FAILED  # --supervise does not retry it
    assert capsys.readouterr().err == f"lps: {UNSIGNED_OUTBOX_REFUSED}\n"


@pytest.mark.processes
async def test_an_outbox_pool_started_by_the_dramatiq_cli_without_a_signing_secret_refuses_at_once_and_says_why(
    settings: Settings,
):
    """`dramatiq actors.worker:setup` itself, as a deployment may run it: the worker refuses at boot, and Dramatiq's
    main process exits with its code at once, not after its 30 s worker-boot timeout."""
    spec = settings.job(JobType.OUTBOX)
    command = worker_command(spec, processes=1, threads=1, shutdown_grace=1.0)
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        *command, env=unsigned_env(settings), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    took = time.monotonic() - started
    text = output.decode(errors="replace")

    assert process.returncode == SETUP_FAILED, text
    assert UNSIGNED_OUTBOX_REFUSED in text
    assert took < 20, f"refused after {took:.1f}s: Dramatiq waited for a worker that never said it booted"


@pytest.mark.parametrize(
    ("queues", "allow_unsigned", "boots"),
    [
        ("search", False, True),  # the search pool never signs: no secret needed
        ("outbox", True, True),  # LPS_OUTBOX_ALLOW_UNSIGNED=1: delivers unsigned, as asked
        ("outbox", False, False),
        ("all", False, False),  # a pool that consumes every declared queue, the outbox's among them
    ],
)
def test_only_a_pool_that_would_deliver_unsigned_is_stopped_at_boot(queues: str, allow_unsigned: bool, boots: bool):
    """What the refusing pool above and a starting pool have in common, without starting one: the check at the
    worker's boot, given the queues the pool consumes (`lps worker` asks the same of its pool's queues)."""
    settings = Settings(outbox_url=UNSIGNED, outbox_secret="", outbox_allow_unsigned=allow_unsigned)
    broker = StubBroker()
    whitelist = settings.job(JobType[queues.upper()]).queues if queues != "all" else None
    worker = SimpleNamespace(consumer_whitelist=whitelist)
    middleware = UnsignedOutboxRefused(settings)
    if boots:
        middleware.before_worker_boot(broker, worker)  # type: ignore[arg-type]
    else:
        with pytest.raises(SystemExit) as refused:
            middleware.before_worker_boot(broker, worker)  # type: ignore[arg-type]
        assert refused.value.code == SETUP_FAILED
    assert settings.refuses_unsigned_outbox(whitelist) is not boots
