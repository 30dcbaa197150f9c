"""`lps reconciler --once` runs a pass from the command line."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from tests.reconciler_stack import Stack
from tests.reconciler_stack import stack as stack


@pytest.mark.processes
async def test_lps_reconciler_once_runs_a_pass_from_the_command_line(stack: Stack):
    await stack.insert()
    env = {**stack.settings.to_env()}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "tools.lps", "reconciler", "--once"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, **env},
    )
    assert done.returncode == 0, done.stderr
    assert "republished_unconfirmed" in done.stdout
