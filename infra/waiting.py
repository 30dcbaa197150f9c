"""Why a PENDING job does not run at once, and until when: for the dashboard's job page and `lps submit`'s progress
line alike, from a job as the store (or, with its times parsed, the API) gives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from schemas.codes import JobStatus


@dataclass(frozen=True, slots=True)
class Waiting:
    """A PENDING job that does not run at once: until when, and why."""

    until: datetime
    #: "deferred" (its sources' turn did not come, or its worker stopped) or "retry" (a failed attempt's backoff).
    kind: str
    why: str
    sources: list[str] = field(default_factory=list)
    #: A retry's: the error type of the attempt that failed (BLOCKED, TIMEOUT …).
    error_type: str | None = None


def waiting(job: dict[str, Any], now: datetime) -> Waiting | None:
    """Why a PENDING job waits and until when; None when it is not waiting (it runs as soon as a worker is free)."""
    if job.get("status") != JobStatus.PENDING.name:
        return None
    deferred = job.get("deferred")
    run_after = job.get("run_after")
    if deferred:
        until = deferred.get("until") or run_after
        if until is not None and until > now:
            return Waiting(
                until, "deferred", deferred.get("reason") or "its turn did not come", deferred.get("sources") or []
            )
    if run_after is not None and run_after > now and job.get("attempts", 0) > 0:
        error = job.get("last_error") or {}
        why = f"{error['type']}: {error.get('message', '')}" if error.get("type") else "the last attempt failed"
        return Waiting(run_after, "retry", why, error_type=error.get("type"))
    return None
