"""Why a source's turn was refused, as each limiter reads it from the source's document."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a token was refused, and what to do about it."""

    reason: str
    #: Seconds until a token may be had.
    retry_in: float = 0.0
    #: Waiting cannot help (the breaker is open, or a probe is deciding): defer now.
    final: bool = False
    #: The breaker's cool-down is over: try to take the probe.
    probe: bool = False
    #: Slots are held by searches whose lease ended (their worker stopped): remove those, then try again.
    prune: bool = False
    #: Nothing in the document refuses a token: it changed between the update and the read. Try again at once.
    contention: bool = False


def seconds(delta: timedelta) -> float:
    return max(delta.total_seconds(), 0.0)
