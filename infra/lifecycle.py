"""What happens to a job after an attempt: the one place that decides it (`decide_after_failure`), and the map of
every path that moves a job. What each status means and who moves a job out of it: `schemas.codes.JobStatus`.

The whole status machine (each arrow is one conditional update in `infra.jobs.JobRepository`):

    PENDING --claim--------------> RUNNING      a worker took the job's message               (worker)
    RUNNING --complete-----------> DONE         the attempt succeeded                         (worker)
    RUNNING --schedule_retry-----> PENDING      failed, attempts remain; run_after = backoff  (worker)
    RUNNING --schedule_retry-----> PENDING      deferred (its sources' turn, or its worker stopping): the
                                                attempt given back (attempts - 1)             (worker)
    RUNNING --kill---------------> DEAD         failed for good or attempts exhausted         (worker)
    RUNNING --recover_lost-------> RUNNING      lease expired; a message's worker takes it over
    RUNNING --recover_lost-------> PENDING      lease expired; the reconciler publishes it again
    RUNNING --recover_lost-------> DEAD         lease expired during the last attempt (ATTEMPTS_EXHAUSTED)
    PENDING --kill_dead_lettered-> DEAD         the broker dead-lettered its message          (reconciler)
    RUNNING --kill_dead_lettered-> DEAD
    DEAD    --redrive------------> PENDING      an operator asked for it (API / CLI / dashboard)

Every path that ends a job, and the one way back. Each ending is one `JobRepository` method writing `infra.jobs._ending`
(status, `finished_at`, the product's active slot freed), and nothing else in LPS writes DONE or DEAD: the DEAD rows
are the whole answer to "who can make a job DEAD".

    to       JobRepository method   when                                      called by
    DONE     complete               the attempt succeeded; or it failed,      the worker:
                                    cannot retry, and `decide_after_failure`  actors.middleware.JobStatusMiddleware
                                    ended it with the failure's fallback      ._complete
                                    (a search some of whose sources answered)
    DEAD     kill                   the attempt failed and                    the worker: JobStatusMiddleware._fail
                                    `decide_after_failure` said DEAD: a
                                    permanent failure, or the last attempt
                                    failed with nothing to show
    DEAD     recover_lost           lease expiry: the worker stopped during   a message's worker (take-over):
             (ATTEMPTS_EXHAUSTED)   the job's last attempt                    JobStatusMiddleware._claim; the
                                                                              reconciler: infra.reconciler
                                                                              .Reconciler._recover_expired_leases
    DEAD     kill_dead_lettered     dead-lettering: the broker gave up on     the reconciler: Reconciler._bury
             (DEAD_LETTER)          the job's message (PENDING or RUNNING)
    PENDING  redrive                re-drive, out of DEAD: an operator asked  infra.enqueue.JobEnqueuer.redrive (the
                                    (fresh attempts, history kept)            API's retry, `lps redrive`, the dashboard)

Invariant: `attempts <= max_attempts` for every job. Only a claim or a take-over increments `attempts`, and
neither runs on a job whose attempts are exhausted: such a job goes DEAD instead.

Deferred, not failed. A search whose sources' turn did not come (fleet-wide pacing, LPS_SOURCE_RATES /
LPS_SOURCE_CONCURRENCY, or an open circuit breaker: `infra.source_limits`) has not been tried, so it must not cost
an attempt. The choice: the worker claims the job as usual (the claim is what reads the job and its sources), waits
a short bounded time for a token (LPS_SOURCE_WAIT) before any browser page is taken, and when none comes the attempt
fails with a `Failure(defer={sources, reason})`. `decide_after_failure` makes that a DEFERRED decision whatever the
attempts left, and `schedule_retry(deferred=...)` records it in the same conditional update that makes the job
PENDING again: `$inc: {attempts: -1, deferrals: 1}` gives the attempt back, no history entry is written (a long-open
breaker would push real attempts out of the bounded history), `deferred` says which sources and why, `last_error` is
left alone. The message is then published again with the delay, as a retry's is. Deferring before the claim (as the
middleware's `_defer` does for a job under a live lease) was not chosen: it would cost a read of the job for every
message and put knowledge of sources into the generic middleware.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from schemas.codes import AttemptOutcome, JobErrorType


def error_document(
    error_type: str,
    message: str,
    at: datetime,
    *,
    snapshot: str | None = None,
    sources: dict[str, str] | None = None,
) -> dict[str, Any]:
    """`last_error` and a history entry's `error`: {type, message, at[, snapshot][, sources]}."""
    document: dict[str, Any] = {"type": str(error_type), "message": message, "at": at}
    if snapshot:
        document["snapshot"] = snapshot
    if sources:
        document["sources"] = sources
    return document


def attempts_exhausted(job: dict[str, Any]) -> bool:
    """The attempt the job is in (or just ended) was its last."""
    return job["attempts"] >= job["max_attempts"]


@dataclass(frozen=True, slots=True)
class Failure:
    """How an attempt failed, as the decision needs it (`actors.errors.JobError.failure()` builds one)."""

    error_type: str
    message: str
    #: False: retrying cannot help (bad configuration, the receiver refused the payload).
    retryable: bool = True
    #: How much longer than usual to wait (a site that blocks us gets more time).
    backoff_factor: float = 1.0
    #: Seconds the other side asked us to wait (HTTP Retry-After).
    retry_after: float | None = None
    snapshot: str | None = None
    #: Fields stored with a retry, for the next attempt (a search keeps what its answering sources found).
    keep: dict[str, Any] | None = None
    #: What the job ends DONE with when it cannot retry (a search's incomplete result); None: it ends DEAD.
    fallback: dict[str, Any] | None = None
    #: Set: nothing was tried, the sources' turn did not come; what waits and why (a search's {sources, reason}).
    #: Deferred (`retry_after`: when a turn may come), the attempt given back; never DEAD or DONE for it.
    defer: dict[str, Any] | None = None
    #: A search's failed sources and how each failed: kept in the error, so a search that dies without a result
    #: still tells which sources blocked it (the dashboard's charts count them).
    sources: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter, bounded by LPS_RETRY_MIN_BACKOFF / LPS_RETRY_MAX_BACKOFF."""

    min_backoff: float
    max_backoff: float

    def delay_seconds(self, attempt: int, failure: Failure) -> float:
        """Attempt n waits min·2^(n-1)·(1..1.5) times the failure's factor, never outside [min, max].

        A Retry-After from the other side is honoured (up to the maximum).
        """
        if failure.retry_after is not None:
            return min(self.max_backoff, max(self.min_backoff, failure.retry_after))
        exponential = self.min_backoff * 2 ** max(attempt - 1, 0)
        jittered = random.uniform(exponential, exponential * 1.5)
        return min(self.max_backoff, jittered * max(failure.backoff_factor, 1.0))

    def defer_seconds(self, failure: Failure) -> float:
        """A deferred job comes back when its source's turn may come (`retry_after`), spread by up to half again so
        that the jobs deferred together do not all return at once; never outside [min, max]."""
        earliest = max(self.min_backoff, failure.retry_after or 0.0)
        return min(self.max_backoff, random.uniform(earliest, earliest * 1.5))


@dataclass(frozen=True, slots=True)
class Decision:
    """What becomes of a job whose attempt failed: RETRY at `run_after` (storing `keep`), DEFERRED (the same, with
    the attempt given back), DONE with its fallback `output`, or DEAD."""

    outcome: AttemptOutcome
    error: dict[str, Any]
    run_after: datetime | None = None
    keep: dict[str, Any] | None = None
    output: dict[str, Any] | None = None


def decide_after_loss(job: dict[str, Any], now: datetime) -> Decision:
    """The next step of a RUNNING job whose worker stopped during the attempt (its lease expired): DEAD
    (ATTEMPTS_EXHAUSTED) when that attempt was its last, else LOST and run again at once, with no backoff (the
    failure was the worker's, not the job's). Whoever finds the loss first acts on it (`JobRepository.recover_lost`)."""
    exhausted = attempts_exhausted(job)
    error_type = JobErrorType.ATTEMPTS_EXHAUSTED if exhausted else JobErrorType.WORKER_LOST
    error = error_document(error_type, "the worker stopped during the attempt (lease expired)", now)
    if exhausted:
        return Decision(AttemptOutcome.DEAD, error)
    return Decision(AttemptOutcome.LOST, error, run_after=now)


def decide_after_failure(job: dict[str, Any], failure: Failure, policy: RetryPolicy, now: datetime) -> Decision:
    """The next step of a RUNNING job whose attempt failed (River's reportError, Oban's error_job).

    Defer an attempt that tried nothing, whatever the attempts left; retry while the failure is retryable and
    attempts remain; otherwise DONE with the failure's fallback when it has one (a search some sources answered),
    else DEAD.
    """
    error = error_document(failure.error_type, failure.message, now, snapshot=failure.snapshot, sources=failure.sources)
    if failure.defer is not None:
        delay = policy.defer_seconds(failure)
        return Decision(AttemptOutcome.DEFERRED, error, run_after=now + timedelta(seconds=delay), keep=failure.keep)
    if failure.retryable and not attempts_exhausted(job):
        delay = policy.delay_seconds(job["attempts"], failure)
        return Decision(AttemptOutcome.RETRY, error, run_after=now + timedelta(seconds=delay), keep=failure.keep)
    if failure.fallback is not None:
        return Decision(AttemptOutcome.DONE, error, output=failure.fallback)
    return Decision(AttemptOutcome.DEAD, error)
