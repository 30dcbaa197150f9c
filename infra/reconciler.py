"""The reconciler: finds jobs the normal flow lost track of and puts them back on it.

Several reconcilers may run at once: every action starts with a conditional update that only one of
them can win, so a job is never published twice by two reconcilers in the same round (a duplicate
message is harmless anyway: the claim lets only one attempt run).

Per pass, in order:
- PENDING jobs whose publish the broker never confirmed (no `enqueued_at` after the grace period)
  are published;
- PENDING jobs long past `run_after` with no claim, of a job type whose queues are empty (their message was lost,
  not waiting in a backlog) are published again;
- RUNNING jobs whose lease expired (their worker died and no message came back) go back to PENDING
  and are published, or go DEAD when that was their last attempt;
- messages in the `.XQ` dead-letter queues become DEAD jobs (undecodable ones, ones without a job id and
  ones for an unknown actor are kept in `dead_letters`), so the queues never hold the only record of a failure;
- DONE searches whose delivery job was never created (the worker stopped right after DONE) get it: a cursor
  kept in the `reconciler` collection walks the DONE searches forward, one batch per pass.

A job is marked enqueued only once the broker confirmed its message, so a reconciler killed mid-pass
leaves what it took unconfirmed, for the next pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import dramatiq
from dramatiq.common import xq_name
from dramatiq.errors import DecodeError

from infra.broker import AMQP_ERRORS, Publisher, create_broker
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer, message_for_job, outbox_job_for
from infra.job_documents import parse_job_id
from infra.jobs import JobRepository
from infra.logs import job_extra
from infra.mongo import FIRST_ID, MONGO_UNAVAILABLE, MainDatabase, create_client
from infra.reconciler_log import ReconcilerLog
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.watches import WatchRepository
from schemas.codes import JobStatus, JobType

log = logging.getLogger(__name__)

#: How far back a DONE search is checked for its missing delivery job.
OUTBOX_LOOKBACK = timedelta(hours=6)


@contextlib.asynccontextmanager
async def open_reconciler(settings: Settings) -> AsyncIterator[Reconciler]:
    """The reconciler process's factory: its own MongoDB client and publisher, closed on exit."""
    async with _opened(settings) as (reconciler, _):
        yield reconciler


@contextlib.asynccontextmanager
async def _opened(settings: Settings) -> AsyncIterator[tuple[Reconciler, WatchScheduler]]:
    """The reconciler and the watch scheduler of one process, sharing its MongoDB client and publisher."""
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    publisher = Publisher(create_broker(settings, middleware=[]))
    try:
        await publisher.start(settings.queues())
        jobs = JobRepository(database)
        journal = ReconcilerLog(database.write)
        enqueuer = JobEnqueuer(settings, jobs, publisher)
        scheduler = WatchScheduler(settings, WatchRepository(database.write), enqueuer, journal)
        yield Reconciler(settings, jobs, publisher, journal), scheduler
    finally:
        await publisher.close()
        await client.close()


async def run_reconciler(settings: Settings, *, once: bool = False) -> Counter[str] | None:
    """`lps reconciler`: one pass of each (returns what they did), or passes until SIGINT / SIGTERM.

    The watch scheduler runs beside the reconciler, on its own interval (LPS_WATCH_POLL_INTERVAL): both are
    periodic passes over the store that any number of processes may run at once, each action one conditional
    update, so one more process kind would buy nothing but one more thing to deploy (docs/architecture.md).
    """
    async with _opened(settings) as (reconciler, scheduler):
        if once:
            return await reconciler.run_once() + await scheduler.run_once()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        log.info(
            "reconciler running every %.0fs, watch scheduler every %gs",
            settings.reconcile_interval,
            settings.watch_poll_interval,
        )
        await asyncio.gather(reconciler.run_forever(stop), scheduler.run_forever(stop))
        return None


class Reconciler:
    def __init__(self, settings: Settings, jobs: JobRepository, publisher: Publisher, journal: ReconcilerLog) -> None:
        self._settings = settings
        self._jobs = jobs
        self._publisher = publisher
        self.journal = journal
        self._actor_names = {band.actor_name for job_type in JobType for band in settings.job(job_type).bands}

    async def run_once(self) -> Counter[str]:
        """One pass; returns what it did, by action."""
        settings, now = self._settings, utcnow()
        grace = timedelta(seconds=settings.reconcile_grace)
        batch = settings.reconcile_batch
        counts: Counter[str] = Counter()
        counts["republished_unconfirmed"] = await self._republish(
            await self._jobs.unconfirmed(before=now - grace, limit=batch), now
        )
        counts["republished_lost"] = await self._republish_lost(now - timedelta(seconds=settings.reconcile_lost_after))
        counts |= await self._recover_expired_leases(now - grace, now)
        counts |= await self._dead_letters_to_dead_jobs(now)
        if settings.outbox_url:
            counts["outbox_created"] = await self._create_missing_outboxes(now, finished_before=now - grace)
        await self.journal.add(counts, now)
        return +counts

    async def run_forever(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                if done := await self.run_once():
                    log.info("reconciled: %s", dict(done))
            except (*MONGO_UNAVAILABLE, *AMQP_ERRORS) as unavailable:
                log.warning("reconcile pass cut short: %s", type(unavailable).__name__)
            except Exception:
                # One bad pass must not end the reconciler: the next one starts from the store again.
                log.exception("reconcile pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._settings.reconcile_interval)

    async def _publish_taken(self, taken: Sequence[tuple[dict[str, Any], dramatiq.Message]], now: datetime) -> int:
        """Publish jobs this reconciler won, and only then mark them enqueued: the broker confirmed them.

        One the broker did not confirm (or that a reconciler killed here never published) stays unconfirmed,
        and the next pass after the grace period takes it again.
        """
        confirmed = await self._publisher.publish([message for _, message in taken])
        published = [job["_id"] for job, message in taken if message.message_id in confirmed]
        await self._jobs.mark_enqueued(published, utcnow())
        for job, message in taken:
            if message.message_id in confirmed:
                log.info(
                    "job %s published again (message %s)",
                    job["_id"],
                    message.message_id,
                    extra=job_extra(job["_id"], message.message_id),
                )
        return len(confirmed)

    async def _republish(self, candidates: list[dict[str, Any]], now: datetime) -> int:
        taken = []
        for job in candidates:
            message = message_for_job(self._settings, job)
            # The clock at the take, not the pass start: other passes that started before it must not see the job
            # as untouched since their cut-off.
            if await self._jobs.take_for_republish(job, now=utcnow(), message_id=message.message_id):
                taken.append((job, message))
        return await self._publish_taken(taken, now) if taken else 0

    async def _republish_lost(self, due_before: datetime) -> int:
        """Publish again the PENDING jobs whose message was lost: due before `due_before`, never claimed, of a job type
        whose queues hold no message ready. While a type's queue still holds messages, a job that waited long is taken
        to be in that backlog, not lost: a second message would only queue behind the same backlog, and a pass would
        read the backlog's jobs (issue 24). So a lost message is found LPS_RECONCILE_LOST_AFTER after its run_after, or
        once its queue is empty if that is later (the next pass after it)."""
        republished = 0
        for job_type in JobType:
            queues = await self._publisher.queue_info(self._settings.job(job_type).queues)
            if any(info.messages for info in queues.values()):
                continue
            lost = await self._jobs.overdue(job_type, due_before=due_before, limit=self._settings.reconcile_batch)
            republished += await self._republish(lost, utcnow())
        return republished

    async def _recover_expired_leases(self, expired_before: datetime, now: datetime) -> Counter[str]:
        counts: Counter[str] = Counter()
        taken = []
        for job in await self._jobs.expired_leases(expired_before=expired_before, limit=self._settings.reconcile_batch):
            message = message_for_job(self._settings, job)
            recovered = await self._jobs.recover_lost(job, now=now, message_id=message.message_id)
            if recovered is None:
                continue
            if recovered["status"] == JobStatus.PENDING.name:
                taken.append((job, message))
                counts["recovered"] += 1
            else:
                log.error(
                    "job %s DEAD: its worker stopped during its last attempt", job["_id"], extra=job_extra(job["_id"])
                )
                counts["recovered_dead"] += 1
        if taken:
            await self._publish_taken(taken, now)
        return counts

    async def _dead_letters_to_dead_jobs(self, now: datetime) -> Counter[str]:
        """Empty the `.XQ` queues; every dead letter taken is counted by what became of it."""
        counts: Counter[str] = Counter()
        for queue in map(xq_name, self._settings.queues()):
            taken = await self._publisher.take(queue, self._settings.reconcile_batch)
            for _, body in taken:
                counts[await self._bury(queue, body, now)] += 1
            if taken:
                await self._publisher.ack(tag for tag, _ in taken)
        return counts

    async def _bury(self, queue: str, body: bytes, now: datetime) -> str:
        """Record one dead letter; what became of it: `dead_lettered` (its job is now DEAD), `dead_letters_kept`
        (no job to record it on: kept in `dead_letters`) or `dead_letters_of_ended_jobs` (its job had ended)."""
        try:
            message = dramatiq.Message.decode(body)
        except DecodeError:
            await self.journal.keep_dead_letter(queue=queue, body=body, reason="undecodable", now=now)
            log.error("undecodable dead letter in %s kept in dead_letters", queue)
            return "dead_letters_kept"
        if message.actor_name not in self._actor_names:
            # Not an LPS job message (a stray publish): kept for a person, and no job is touched.
            await self.journal.keep_dead_letter(queue=queue, body=body, reason="unknown actor", now=now)
            log.error("dead letter for unknown actor %r in %s kept in dead_letters", message.actor_name, queue)
            return "dead_letters_kept"
        job_id = parse_job_id(message.args[0] if message.args else "")
        if job_id is None:
            await self.journal.keep_dead_letter(queue=queue, body=body, reason="no job id", now=now)
            return "dead_letters_kept"
        if await self._jobs.kill_dead_lettered(job_id, now=now, queue=queue):
            log.error("job %s DEAD: its message was dead-lettered", job_id, extra=job_extra(job_id, message.message_id))
            return "dead_lettered"
        return "dead_letters_of_ended_jobs"  # already DEAD or DONE: the job document recorded its end

    async def _create_missing_outboxes(self, now: datetime, *, finished_before: datetime) -> int:
        """Walk the DONE searches forward from the kept cursor; give each one without a delivery job its own.

        One batch per pass at most `LPS_RECONCILE_BATCH` searches, whatever the history: a pass costs the same on
        day 100 as on day 1, and a busy day only makes the walk lag, never skip (the cursor moves past a search
        only once it was checked). A first pass starts `OUTBOX_LOOKBACK` back.
        """
        start = await self.journal.delivery_cursor(default=(now - OUTBOX_LOOKBACK, FIRST_ID))
        page = await self._jobs.ended_after(
            start,
            until=finished_before,
            limit=self._settings.reconcile_batch,
            match={"status": JobStatus.DONE.name, "job_type": JobType.SEARCH.name},
            projection={"_id": 1, "product_code": 1},
        )
        created = 0
        covered = await self._jobs.searches_with_outbox([job["_id"] for job in page.jobs]) if page.jobs else set()
        for job in page.jobs:
            if job["_id"] in covered:
                continue
            document, message = outbox_job_for(job, self._settings)
            if await self._jobs.insert_follow_up(document):
                created += 1
                if await self._publisher.publish([message]):
                    await self._jobs.mark_enqueued([document["_id"]], utcnow())
        # With nothing found, the cursor still moves past the quiet minutes, but at most once a minute (one write).
        if page.jobs or page.cursor[0] - start[0] >= timedelta(minutes=1):
            await self.journal.advance_delivery_cursor(start, page.cursor)
        return created
