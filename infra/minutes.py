"""Minutes since the epoch: what the per-minute timeline tallies ended jobs by
(`infra.job_documents.finished_minute`), and the start of a minute (where a walk over ended jobs may stop,
`JobRepository.ended_after`)."""

from __future__ import annotations

from datetime import UTC, datetime


def minute_of(at: datetime) -> int:
    """The minute `at` falls in, as minutes since the epoch."""
    return int(at.timestamp() // 60)


def minute_start(minute: int) -> datetime:
    return datetime.fromtimestamp(minute * 60, UTC)
