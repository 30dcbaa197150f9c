"""An outbox pool refuses to sign deliveries with an empty key: started by the Dramatiq CLI without
LPS_OUTBOX_SECRET, it refuses at once and says why."""

from __future__ import annotations

import asyncio
import time

import pytest

from actors.worker import SETUP_FAILED
from infra.settings import UNSIGNED_OUTBOX_REFUSED, Settings
from schemas.codes import JobType
from tests.unsigned_outbox import unsigned_env
from tools.cli import worker_command


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
