"""What the tests of the operator commands (`lps submit|jobs|stats|redrive|watch`) share: `lps` run in a process of
its own, and its one-line errors."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass

LPS = [sys.executable, "-m", "tools.lps"]


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


async def lps(*args: str, gateway: str | None = None, within: float = 120) -> Ran:
    """`lps ARGS` in its own process (asynchronously: the gateway under test runs on this event loop)."""
    command = [*LPS, *args, *(["--gateway", gateway] if gateway else [])]
    env = {key: value for key, value in os.environ.items() if key not in ("LPS_GATEWAY_URL", "LPS_API_KEY")}
    process = await asyncio.create_subprocess_exec(
        *command, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), within)
    assert process.returncode is not None
    return Ran(process.returncode, stdout.decode(), stderr.decode())


def assert_one_line_error(ran: Ran, code: int, *needles: str) -> None:
    assert ran.code == code, ran
    assert "Traceback" not in ran.stderr, ran.stderr
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, ran.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
