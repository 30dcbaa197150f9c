"""JobStatusMiddleware: every attempt of every job, written into the job's document."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import FrameType
from typing import Any, NoReturn

import dramatiq
from bson import ObjectId
from dramatiq.middleware import Middleware, SkipMessage

from actors import metrics
from actors.errors import JobError
from actors.pausing import hand_back
from actors.runtime import Attempt, WorkerRuntime
from infra.clock import utcnow
from infra.job_documents import parse_job_id
from infra.lifecycle import Failure, RetryPolicy, decide_after_failure
from infra.logs import bind_job, unbind_job
from infra.mongo import MONGO_UNAVAILABLE
from infra.settings import SHUTDOWN_RECORDING_TIME
from schemas.codes import AttemptOutcome, JobErrorType, JobStatus, JobType

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JobKind:
    """What the workers do for one job type (its queue, attempts and limits are `Settings.job(job_type)`)."""

    job_type: JobType
    #: Works one attempt; returns the fields stored with DONE. Raises JobError subclasses to fail.
    work: Callable[[dict[str, Any], WorkerRuntime], Coroutine[Any, Any, dict[str, Any]]]
    #: Runs once the job is DONE; returns messages of the jobs it spawned, to publish.
    on_done: Callable[[dict[str, Any], WorkerRuntime], Coroutine[Any, Any, list[dramatiq.Message]]] | None = None


def failure_of(exception: BaseException) -> Failure:
    """The failure an attempt's exception describes; anything LPS did not raise itself is INTERNAL."""
    if isinstance(exception, JobError):
        return exception.failure()
    return Failure(JobErrorType.INTERNAL, f"{type(exception).__name__}: {exception}"[:500])


class JobStatusMiddleware(Middleware):
    """Claims the job before each attempt, and after it records what `infra.lifecycle.decide_after_failure` made of it.

    Dramatiq's Retries middleware is not used for job actors: the job document is the one source of truth
    for attempts, and this middleware publishes the retry itself (with the delay `decide_after_failure` chose) once the
    job is PENDING again. A message that must not run now is skipped with `SkipMessage` (the one exception
    Dramatiq honours in a before-hook): deferred messages are published again with a delay first.
    """

    #: `throws` (Retries' option, which Dramatiq's worker reads): exceptions logged without a traceback.
    actor_options = {"throws"}  # noqa: RUF012 (Dramatiq's Middleware declares it as a plain class attribute)

    def __init__(self, runtime: WorkerRuntime, kinds: Mapping[str, JobKind], policy: RetryPolicy) -> None:
        self.runtime = runtime
        self.kinds = dict(kinds)
        self.policy = policy

    def before_process_message(self, broker: dramatiq.Broker, message: dramatiq.MessageProxy) -> None:
        """Runs in the worker thread before the actor: claim the job, or skip the message without work."""
        kind = self.kinds.get(message.actor_name)
        if kind is None:
            return  # not a job actor: Dramatiq dead-letters it, the reconciler keeps it in dead_letters
        if self.runtime.pauses.paused(message.queue_name):
            # Taken from the consumer before the pause was read, not started: back to its queue, in its place.
            hand_back(message)
            log.info("message %s handed back unclaimed: %s work is paused", message.message_id, kind.job_type.name)
            raise SkipMessage("paused")
        job_id = parse_job_id(message.args[0] if message.args else "")
        if job_id is None:
            log.error("message %s carries no valid job id: dead-lettered", message.message_id)
            message.fail()
            raise SkipMessage("no job id")
        try:
            job = self._claim(kind, job_id)
        except MONGO_UNAVAILABLE as unavailable:
            # Nothing was claimed: the message comes back once MongoDB may be reachable again.
            self._defer(broker, message, self.policy.min_backoff, f"MongoDB unavailable ({type(unavailable).__name__})")
        except Exception:
            log.exception("claiming job %s failed", job_id)
            self._defer(broker, message, self.policy.min_backoff, "the claim failed")
        if job is None:
            self._skip_or_defer(broker, message, self.runtime.run(self.runtime.jobs.get_current(job_id)))
        if job["status"] == JobStatus.DEAD.name:
            log.error("job %s DEAD without running again: its worker stopped during its last attempt", job_id)
            raise SkipMessage("attempts exhausted")
        self.runtime.attempts.start(Attempt(job))
        log.info("job %s attempt %d/%d claimed by %s", job_id, job["attempts"], job["max_attempts"], job["worker"])

    def _claim(self, kind: JobKind, job_id: Any) -> dict[str, Any] | None:
        """The job as claimed for this thread; or taken over from a worker that stopped (DEAD when that was its
        last attempt); None when the job is not this message's to work now."""
        runtime, now = self.runtime, utcnow()
        worker = runtime.worker_name()
        lease_until = now + timedelta(
            seconds=runtime.settings.job(kind.job_type).time_limit + runtime.settings.lease_margin
        )
        job = runtime.run(runtime.jobs.claim(job_id, worker=worker, now=now, lease_until=lease_until))
        if job is None and (lost := runtime.run(runtime.jobs.lost_attempt(job_id, now=now))) is not None:
            job = runtime.run(runtime.jobs.recover_lost(lost, now=now, take_over=(worker, lease_until)))
        return job

    def _skip_or_defer(
        self, broker: dramatiq.Broker, message: dramatiq.MessageProxy, current: dict[str, Any] | None
    ) -> NoReturn:
        if current and current["status"] == JobStatus.RUNNING.name and current.get("lease_until"):
            # Held under a live lease: maybe a duplicate, maybe the redelivery of a crashed attempt. Come back
            # when the lease ends; the claim then decides (take over, or skip a job that finished meanwhile).
            wait = max((current["lease_until"] - utcnow()).total_seconds(), 0) + 1
            self._defer(broker, message, wait, "job held under a live lease")
        if current is None:
            # Expected after a store was replaced (a dev restart, a test's database): a message left from that run.
            why = "no such job in this store (a message left from an earlier run, or its job expired)"
        else:
            why = f"its job already ended {current['status']} (a duplicate or late message)"
        log.info("message %s for job %s skipped: %s", message.message_id, message.args[0], why)
        raise SkipMessage(why)

    def _defer(self, broker: dramatiq.Broker, message: dramatiq.MessageProxy, seconds: float, why: str) -> NoReturn:
        """Publish this message again after `seconds`, then skip (acknowledge) this delivery of it."""
        try:
            broker.enqueue(message.copy(), delay=int(seconds * 1000))
            log.info("message %s deferred %.0fs: %s", message.message_id, seconds, why)
        except Exception:  # whatever pika raised, the copy was not confirmed
            # The job is PENDING or RUNNING in MongoDB: the reconciler publishes it again once it counts as lost.
            log.warning("message %s dropped (%s) and could not be deferred: left to the reconciler", message, why)
        raise SkipMessage(why)

    def after_process_message(
        self,
        broker: dramatiq.Broker,
        message: dramatiq.MessageProxy,
        *,
        result: Any = None,
        exception: BaseException | None = None,
    ) -> None:
        """Runs in the worker thread once the actor returned or raised: DONE, PENDING again (retry), or DEAD."""
        kind = self.kinds.get(message.actor_name)
        attempt = self.runtime.attempts.finish() if kind else None
        if kind is None or attempt is None:
            return  # nothing was claimed (skipped or deferred)
        job, now = attempt.job, utcnow()
        try:
            if exception is None:
                outcome = AttemptOutcome.DONE if self._complete(broker, kind, attempt, now) else AttemptOutcome.LOST
            else:
                outcome = self._fail(broker, message, kind, attempt, failure_of(exception), now)
        except MONGO_UNAVAILABLE:
            # The job stays RUNNING; its lease expires and the reconciler (or a redelivery) recovers it.
            log.exception("could not record the end of job %s attempt %d", job["_id"], job["attempts"])
            outcome = AttemptOutcome.LOST
        # From the claim to the actor's end: the time the attempt itself took, bookkeeping left out.
        metrics.attempt_finished(kind.job_type.name, outcome, (now - job["started_at"]).total_seconds())

    def _fail(
        self,
        broker: dramatiq.Broker,
        message: dramatiq.MessageProxy,
        kind: JobKind,
        attempt: Attempt,
        failure: Failure,
        now: datetime,
    ) -> AttemptOutcome:
        """Record what `decide_after_failure` made of a failed attempt; a retry's (or a deferral's) message is
        published with its delay."""
        runtime, job = self.runtime, attempt.job
        decision = decide_after_failure(job, failure, self.policy, now)
        if decision.outcome is AttemptOutcome.DONE:
            # It cannot retry, but has something to show (a search some of whose sources answered).
            attempt.output = decision.output or {}
            log.warning("job %s ends DONE with what it has: %s", job["_id"], failure.message)
            done = self._complete(broker, kind, attempt, now, error=decision.error)
            return AttemptOutcome.DONE if done else AttemptOutcome.LOST
        if decision.outcome is AttemptOutcome.DEAD:
            recorded = runtime.run(runtime.jobs.kill(job, now=now, error=decision.error))
            log.error("job %s DEAD after attempt %d: %s", job["_id"], job["attempts"], failure.message)
            return AttemptOutcome.DEAD if recorded else AttemptOutcome.LOST
        assert decision.run_after is not None
        deferred = decision.outcome is AttemptOutcome.DEFERRED
        note = (failure.defer or {}) | {"until": decision.run_after} if deferred else None
        if not runtime.run(
            runtime.jobs.schedule_retry(
                job, now=now, error=decision.error, run_after=decision.run_after, keep=decision.keep, deferred=note
            )
        ):
            return AttemptOutcome.LOST
        delay = (decision.run_after - now).total_seconds()
        if deferred:
            log.info("job %s deferred %.1fs (attempt given back): %s", job["_id"], delay, failure.message)
        else:
            log.warning(
                "job %s attempt %d failed (%s); retry in %.1fs", job["_id"], job["attempts"], failure.error_type, delay
            )
        try:
            broker.enqueue(message.copy(), delay=int(delay * 1000))
        except Exception:  # whatever pika raised, the retry's message was not confirmed
            log.warning("could not publish the retry of job %s: left to the reconciler", job["_id"])
            runtime.run(runtime.jobs.mark_unconfirmed(job["_id"]))
        return decision.outcome

    def _complete(
        self,
        broker: dramatiq.Broker,
        kind: JobKind,
        attempt: Attempt,
        now: datetime,
        error: dict[str, Any] | None = None,
    ) -> bool:
        """DONE, and its follow-ups published; False when the attempt had lost its lease (nothing recorded)."""
        runtime, job = self.runtime, attempt.job
        if not runtime.run(runtime.jobs.complete(job, now=now, output=attempt.output, error=error)):
            log.warning("job %s attempt %d finished after losing its lease: not recorded", job["_id"], job["attempts"])
            return False
        log.info("job %s DONE after attempt %d", job["_id"], job["attempts"])
        if kind.on_done is None:
            return True
        confirmed = []
        for follow_up in runtime.run(kind.on_done(job | attempt.output, runtime)):
            try:
                broker.enqueue(follow_up)
            except Exception:  # whatever pika raised, the broker did not confirm this message
                log.warning(
                    "could not publish follow-up job %s of job %s: the reconciler publishes it after its grace",
                    follow_up.args[0],
                    job["_id"],
                )
            else:
                confirmed.append(ObjectId(follow_up.args[0]))
        # Stored unconfirmed (a worker killed before its publish leaves it to the reconciler's next pass, seconds
        # away): now the broker has it, say so, or the reconciler would publish it a second time.
        try:
            if confirmed:
                runtime.run(runtime.jobs.mark_enqueued(confirmed, utcnow()))
        except MONGO_UNAVAILABLE:
            log.warning("could not record the publish of follow-up job(s) of job %s: published again", job["_id"])
        return True


class JobLogContext(Middleware):
    """Puts the job_id and message_id of the message in hand on every line logged about it (`infra.logs`).

    Register it first: ``before_process_message`` then runs before every other hook, in the worker thread, and
    ``after_process_message`` / ``after_skip_message`` after all the others, so the claim, the attempt, the decision
    and its recording all carry the ids. The attempt's coroutines, handed to the event loop thread by
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


class RuntimeShutdown(Middleware):
    """The worker runtime's part in a worker's shutdown.

    ``before_worker_shutdown`` (main thread, as the worker starts stopping): the attempts in flight get
    LPS_SHUTDOWN_GRACE seconds to finish; then their work is cancelled and the status middleware gives them back
    (WORKER_STOPPED, no attempt spent), as Sidekiq pushes unfinished jobs back: a stop never waits on a slow search
    for longer than the grace, and never costs a job an attempt.

    ``after_worker_shutdown``: close the runtime's clients (MongoDB, HTTP, browser), bounded by CLOSE_TIMEOUT.
    Register it *after* AsyncIO: ``after_worker_shutdown`` hooks run in reverse order, so this one runs once every
    worker thread has recorded its last attempt, and before AsyncIO stops the event loop.
    """

    #: Seconds the clients get to close; a browser that does not answer is left to the Playwright driver, which
    #: ends it when this process exits.
    CLOSE_TIMEOUT = SHUTDOWN_RECORDING_TIME

    def __init__(self, runtime: WorkerRuntime) -> None:
        self.runtime = runtime

    def before_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        self.runtime.interrupt_attempts(after=self.runtime.settings.shutdown_grace)

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        try:
            self.runtime.run(asyncio.wait_for(self.runtime.aclose(), self.CLOSE_TIMEOUT))
        except TimeoutError:
            log.warning("the worker's clients did not close within %.0fs: left to process exit", self.CLOSE_TIMEOUT)


class StopOnce(Middleware):
    """Makes a worker process's stop idempotent and bounded.

    ``after_process_boot`` (a worker process's main thread, once Dramatiq has set its signal handlers and loaded
    the broker): Dramatiq's worker process takes a second SIGTERM (or SIGHUP) as "exit now", which skips the
    orderly stop (attempts given back, clients closed) and can leave the process hanging on its threads. A second
    one is common: `kill -- -PGID` and systemd's control-group stop signal every process while Dramatiq's main
    process forwards its own. So only the first stop signal reaches Dramatiq's handler, later ones are ignored, and
    from the first the process has `deadline` seconds (LPS_SHUTDOWN_GRACE plus SHUTDOWN_RECORDING_TIME) to exit
    before it ends itself: no stop waits longer, however many signals came.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGHUP)

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def after_process_boot(self, broker: dramatiq.Broker) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # an in-process test broker: no process of its own to stop
        stopping = threading.Event()
        handlers = {signum: signal.getsignal(signum) for signum in self.SIGNALS}

        def first_only(signum: int, frame: FrameType | None) -> None:
            if stopping.is_set():
                return
            stopping.set()
            threading.Thread(target=self._end_at_deadline, name="lps-stop-deadline", daemon=True).start()
            handler = handlers[signal.Signals(signum)]
            if callable(handler):
                handler(signum, frame)

        for signum in self.SIGNALS:
            signal.signal(signum, first_only)

    def _end_at_deadline(self) -> None:
        time.sleep(self.deadline)
        # Logged to stderr directly: the logging pipe to the main process may be what hangs.
        sys.stderr.write(f"worker process {os.getpid()} did not stop within {self.deadline:.0f}s: ending it\n")
        os._exit(1)
