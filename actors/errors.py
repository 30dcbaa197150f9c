"""How an attempt fails. The type decides retry or dead; `error_type` names it in `last_error`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import dramatiq


class JobError(Exception):
    """A failed attempt LPS understands."""

    error_type = "ERROR"

    def __init__(self, message: str, *, error_type: str | None = None, snapshot: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if error_type:
            self.error_type = error_type
        #: Where a saved copy of what the worker saw lives (HTML / screenshot), for a person to look at.
        self.snapshot = snapshot


class RetryableJobError(JobError, dramatiq.Retry):
    """Retried with backoff. A `dramatiq.Retry`, so the Retries middleware waits exactly `delay` ms."""

    def __init__(
        self,
        message: str,
        *,
        error_type: str | None = None,
        snapshot: str | None = None,
        backoff_factor: float = 1.0,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, error_type=error_type, snapshot=snapshot)
        #: Set by the retry policy before Retries reads it.
        self.delay: int | None = None
        self.backoff_factor = backoff_factor
        #: Seconds the other side asked us to wait (HTTP Retry-After).
        self.retry_after = retry_after


class PermanentJobError(JobError):
    """Never retried: the job goes DEAD at once (actors declare it in `throws`)."""


def error_document(error: BaseException, at: datetime) -> dict[str, Any]:
    """`last_error` / history `error`: {type, message, at[, snapshot]}."""
    if isinstance(error, JobError):
        document = {"type": error.error_type, "message": error.message, "at": at}
        if error.snapshot:
            document["snapshot"] = error.snapshot
        return document
    return {"type": type(error).__name__, "message": str(error)[:500] or type(error).__name__, "at": at}
