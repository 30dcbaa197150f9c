"""What the tests of the operator commands (`lps submit|jobs|stats|redrive|watch`) and of their gateway client share:
`lps` run in a process of its own, its one-line errors, and DEAD jobs written straight into the store."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId

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


#: When the DEAD jobs of `dead_job` died, unless a test says otherwise: an hour ago.
T0 = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)


def dead_job(product_code: str, created_at: datetime, error: str = "BLOCKED", **extra: Any) -> dict[str, Any]:
    return {
        "_id": ObjectId(),
        "job_type": "SEARCH",
        "status": "DEAD",
        "product_code": product_code,
        "product": {"keyword": "k"},
        "priority": "NORMAL",
        "attempts": 5,
        "max_attempts": 5,
        "created_at": created_at,
        "updated_at": created_at,
        "finished_at": created_at,
        "last_error": {"type": error, "message": "m", "at": created_at},
        "history": [],
        **extra,
    }
