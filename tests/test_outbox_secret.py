"""An outbox pool refuses to sign deliveries with an empty key: LPS_OUTBOX_URL without LPS_OUTBOX_SECRET stops it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from infra.settings import Settings
from tests.harness import worker_pool

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

UNSIGNED = "http://127.0.0.1:9/results"


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


async def test_the_search_pool_and_an_allowed_unsigned_outbox_pool_start(settings: Settings, tmp_path: Path):
    unsigned = settings.with_overrides(outbox_url=UNSIGNED, outbox_secret="")
    async with worker_pool(unsigned, "search", tmp_path):  # it never signs: no secret needed
        pass
    async with worker_pool(unsigned.with_overrides(outbox_allow_unsigned=True), "outbox", tmp_path) as pool:
        pass
    assert "LPS_OUTBOX_SECRET" not in pool.log()
