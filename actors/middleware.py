"""JobStatusMiddleware: every attempt of every job, written into the job's document."""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NoReturn

import dramatiq
from dramatiq.middleware import Middleware, SkipMessage

from actors import metrics
from actors.errors import RetryableJobError, error_document
from actors.retry_policy import RetryPolicy
from actors.runtime import Attempt, WorkerRuntime
from infra.clock import utcnow
from infra.jobs import parse_job_id
from infra.logs import bind_job, unbind_job
from infra.mongo import MONGO_UNAVAILABLE
from schemas.codes import JobStatus, JobType

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JobKind:
    """One job type as the workers run it."""

    job_type: JobType
    #: Works one attempt; returns the fields stored with DONE. Raises JobError subclasses to fail.
    work: Callable[[dict[str, Any], WorkerRuntime], Awaitable[dict[str, Any]]]
    #: Runs once the job is DONE; returns messages of the jobs it spawned, to publish.
    on_done: Callable[[dict[str, Any], WorkerRuntime], Awaitable[list[dramatiq.Message]]] | None = None


class JobStatusMiddleware(Middleware):
    """Claims the job before each attempt and records how the attempt ended.

    Register it *before* Retries (``add_middleware(m, before=Retries)``): ``after_*`` hooks run in
    reverse order, so this middleware's ``after_process_message`` runs once Retries has decided, and
    records that decision: a failed message (``message.failed``) is a DEAD job; a retried one is
    PENDING again with ``run_after`` set from the delay Retries waits.
    """

    def __init__(self, runtime: WorkerRuntime, kinds: Mapping[str, JobKind], policy: RetryPolicy) -> None:
        self.runtime = runtime
        self.kinds = dict(kinds)
        self.policy = policy

    def before_process_message(self, broker: dramatiq.Broker, message: dramatiq.MessageProxy) -> None:
        """Runs in the worker thread before the actor: claim, or skip the message without work."""
        kind = self.kinds.get(message.actor_name)
        if kind is None:
            return
        job_id = parse_job_id(message.args[0] if message.args else "")
        if job_id is None:
            log.error("message %s carries no valid job id: rejected", message.message_id)
            message.fail()
            raise SkipMessage("no job id")

        runtime = self.runtime
        now = utcnow()
        settings = runtime.settings
        lease_until = now + timedelta(seconds=settings.time_limit(kind.job_type) + settings.lease_margin)
        worker = runtime.worker_name()
        try:
            job = runtime.run(runtime.jobs.claim(job_id, worker=worker, now=now, lease_until=lease_until))
            if job is None:
                job = runtime.run(runtime.jobs.take_over(job_id, worker=worker, now=now, lease_until=lease_until))
            if job is None:
                self._skip_or_defer(message, runtime.run(runtime.jobs.get_current(job_id)), now)
            if job["attempts"] > job["max_attempts"]:
                # A message that keeps killing its worker never gets to run again (poison guard).
                error = {
                    "type": "ATTEMPTS_EXHAUSTED",
                    "message": "attempts exhausted: the worker kept stopping",
                    "at": now,
                }
                runtime.run(runtime.jobs.kill(job, now=now, error=error))
                log.error("job %s DEAD without running: %s", job_id, error["message"])
                raise SkipMessage("attempts exhausted")
        except MONGO_UNAVAILABLE as unavailable:
            # Nothing was claimed: the message comes back once MongoDB may be reachable again.
            error = RetryableJobError(str(unavailable), error_type="DB_UNAVAILABLE")
            raise _come_back_later(message, self.policy.delay_seconds(1, error), error) from None

        # Retries fails the message (-> DEAD) once this attempt was the job's last.
        message.options["max_retries"] = message.options.get("retries", 0) + job["max_attempts"] - job["attempts"]
        runtime.attempts.start(str(job_id), Attempt(job))
        log.info("job %s attempt %d/%d claimed by %s", job_id, job["attempts"], job["max_attempts"], worker)

    def _skip_or_defer(self, message: dramatiq.MessageProxy, current: dict[str, Any] | None, now: datetime) -> NoReturn:
        if current and current["status"] == JobStatus.RUNNING.name and current.get("lease_until"):
            # Held under a live lease: maybe a duplicate, maybe the redelivery of a crashed attempt.
            # Come back when the lease ends; the claim then decides (take over, or skip a finished job).
            wait = max((current["lease_until"] - now).total_seconds(), 0) + 1
            raise _come_back_later(
                message, wait, RetryableJobError("job held under a live lease", error_type="LEASE_HELD")
            )
        state = current["status"] if current else "missing"
        log.info("message %s skipped: job %s is %s", message.message_id, message.args[0], state)
        raise SkipMessage(state)

    def after_process_message(
        self,
        broker: dramatiq.Broker,
        message: dramatiq.MessageProxy,
        *,
        result: Any = None,
        exception: BaseException | None = None,
    ) -> None:
        """Runs in the worker thread after Retries' decision: DONE, PENDING again (retry), or DEAD."""
        kind = self.kinds.get(message.actor_name)
        attempt = self.runtime.attempts.finish(str(message.args[0])) if kind else None
        if kind is None or attempt is None:
            return  # nothing was claimed (skipped, deferred or MongoDB unavailable)
        job, runtime, now = attempt.job, self.runtime, utcnow()
        outcome = "DONE" if exception is None else "DEAD" if message.failed else "RETRY"
        try:
            if exception is None:
                if not self._complete(broker, kind, attempt, now):
                    outcome = "LOST"
            elif message.failed:
                error = error_document(exception, now)
                runtime.run(runtime.jobs.kill(job, now=now, error=error))
                log.error("job %s DEAD after attempt %d: %s", job["_id"], job["attempts"], error["message"])
            else:
                error = error_document(exception, now)
                delay_ms = getattr(exception, "delay", None) or self.policy.min_backoff * 1000
                run_after = now + timedelta(milliseconds=delay_ms)
                runtime.run(runtime.jobs.schedule_retry(job, now=now, error=error, run_after=run_after))
                log.warning(
                    "job %s attempt %d failed (%s); retry in %.1fs",
                    job["_id"],
                    job["attempts"],
                    error["type"],
                    delay_ms / 1000,
                )
        except MONGO_UNAVAILABLE:
            # The job stays RUNNING; its lease expires and the next message for it takes it over.
            log.exception("could not record the end of job %s attempt %d", job["_id"], job["attempts"])
        # From the claim to the actor's end: the time the attempt itself took, bookkeeping left out.
        metrics.attempt_finished(kind.job_type.name, outcome, (now - job["started_at"]).total_seconds())

    def _complete(self, broker: dramatiq.Broker, kind: JobKind, attempt: Attempt, now: datetime) -> bool:
        """DONE, and its follow-ups published; False when the attempt had lost its lease (nothing recorded)."""
        runtime, job = self.runtime, attempt.job
        if not runtime.run(runtime.jobs.complete(job, now=now, outcome=attempt.output)):
            log.warning("job %s attempt %d finished after losing its lease: not recorded", job["_id"], job["attempts"])
            return False
        log.info("job %s DONE after attempt %d", job["_id"], job["attempts"])
        if kind.on_done is None:
            return True
        for follow_up in runtime.run(kind.on_done(job | attempt.output, runtime)):
            try:
                broker.enqueue(follow_up)
            except Exception:  # whatever pika raised, the broker did not confirm this message
                # Follow-ups are stored as enqueued (a write fewer per job on the hot path); this one was not:
                # say so, and the reconciler publishes it after its grace period.
                log.warning("could not publish follow-up job %s of job %s", follow_up.args[0], job["_id"])
                runtime.run(runtime.jobs.mark_unconfirmed(parse_job_id(follow_up.args[0])))
        return True


class JobLogContext(Middleware):
    """Puts the job_id and message_id of the message in hand on every line logged about it (`infra.logs`).

    Register it first: ``before_process_message`` then runs before every other hook, in the worker thread, and
    ``after_process_message`` / ``after_skip_message`` after all the others, so the claim, the attempt, Retries'
    decision and its recording all carry the ids. The attempt's coroutines, handed to the event loop thread by
    `WorkerRuntime.run`, carry them too: asyncio runs them in a copy of the worker thread's context.
    """

    def __init__(self) -> None:
        self._local = threading.local()  # one token per worker thread: the hooks of one message share a thread

    def before_process_message(self, broker: dramatiq.Broker, message: dramatiq.MessageProxy) -> None:
        job_id = parse_job_id(message.args[0] if message.args else "")
        self._local.token = bind_job(str(job_id) if job_id else None, message.message_id)

    def after_process_message(
        self,
        broker: dramatiq.Broker,
        message: dramatiq.MessageProxy,
        *,
        result: Any = None,
        exception: BaseException | None = None,
    ) -> None:
        token = getattr(self._local, "token", None)
        if token is not None:
            self._local.token = None
            unbind_job(token)

    after_skip_message = after_process_message


class RuntimeCleanup(Middleware):
    """Closes the worker runtime's clients (MongoDB, HTTP, browser) when the worker has stopped.

    Register it *after* AsyncIO: ``after_worker_shutdown`` hooks run in reverse order, so this one runs
    once every worker thread has finished its last attempt, and before AsyncIO stops the event loop.
    """

    def __init__(self, runtime: WorkerRuntime) -> None:
        self.runtime = runtime

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        self.runtime.run(self.runtime.aclose())


def _come_back_later(
    message: dramatiq.MessageProxy, seconds: float, error: RetryableJobError | None = None
) -> RetryableJobError:
    """An error that makes Retries re-enqueue the unclaimed message after `seconds`, whatever its count."""
    error = error or RetryableJobError("try again later")
    error.delay = int(seconds * 1000)
    message.options["max_retries"] = message.options.get("retries", 0) + 1
    return error
