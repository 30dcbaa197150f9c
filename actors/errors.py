"""How an attempt fails. The class says retryable or permanent; `error_type` names it in `last_error`.

What then happens to the job is decided in one place, `infra.lifecycle.decide_after_failure`, from the `Failure` these
exceptions describe.
"""

from __future__ import annotations

from typing import Any

import dramatiq

from infra.lifecycle import Failure
from schemas.codes import JobErrorType
from schemas.offers import SourceOutcome


class JobError(Exception):
    """A failed attempt LPS understands."""

    error_type: str = JobErrorType.INTERNAL
    retryable = True

    def __init__(
        self,
        message: str,
        *,
        error_type: str | None = None,
        snapshot: str | None = None,
        backoff_factor: float = 1.0,
        retry_after: float | None = None,
        keep: dict[str, Any] | None = None,
        fallback: dict[str, Any] | None = None,
        defer: dict[str, Any] | None = None,
        sources: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if error_type:
            self.error_type = error_type
        #: Where a saved copy of what the worker saw lives (HTML / screenshot), for a person to look at.
        self.snapshot = snapshot
        self.backoff_factor = backoff_factor
        #: Seconds the other side asked us to wait (HTTP Retry-After).
        self.retry_after = retry_after
        #: See `infra.lifecycle.Failure`: fields stored with a retry, and the output of a job that cannot retry.
        self.keep = keep
        self.fallback = fallback
        #: Nothing was tried: what waits and why (`DeferredJobError`).
        self.defer = defer
        #: A search's failed sources and how each failed (BLOCKED, TIMEOUT …), recorded with the error.
        self.sources = sources

    def failure(self) -> Failure:
        return Failure(
            error_type=str(self.error_type),
            message=self.message,
            retryable=self.retryable,
            backoff_factor=self.backoff_factor,
            retry_after=self.retry_after,
            snapshot=self.snapshot,
            keep=self.keep,
            fallback=self.fallback,
            defer=self.defer,
            sources=self.sources,
        )


class RetryableJobError(JobError, dramatiq.Retry):
    """Retried with backoff while attempts remain. A `dramatiq.Retry`, so the worker does not log a traceback."""


class DeferredJobError(RetryableJobError):
    """Nothing was tried: the sources' turn did not come (pacing, an open breaker). Deferred, the attempt given
    back (`infra.lifecycle`); `retry_after`: seconds until a turn may come; `defer`: {sources, reason}."""

    error_type = SourceOutcome.DEFERRED


class PermanentJobError(JobError):
    """Never retried: the job goes DEAD at once (actors declare it in `throws`, so it is logged quietly)."""

    retryable = False


class WorkerStopped(RetryableJobError):
    """The worker was asked to stop during the attempt and cancelled its work: the attempt is given back (deferred,
    not spent), so a deploy or a Ctrl-C never costs a job an attempt and never waits on a slow search."""

    error_type = JobErrorType.WORKER_STOPPED

    def __init__(self) -> None:
        reason = "its worker stopped during the attempt and gave it back"
        super().__init__(reason, defer={"sources": [], "reason": reason})
