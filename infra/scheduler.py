"""The watch scheduler: due watches become ordinary SEARCH jobs, through the gateway's own enqueue path.

A pass reads the due watches by one range of the (paused, next_run_at) index (`WatchRepository.due`: its cost is the
watches due, not all of them), moves each one's
`next_run_at` to its first run after now with one conditional update (so a scheduler that was down catches up with
one search per watch, and of several schedulers exactly one wins each watch), and submits the won ones as searches.
A product whose previous search is still active is not searched twice (the one-active-search index answers the
existing job): the run is counted as `skipped_active` on the watch and as `watch_skipped_active` in the reconciler's
journal (/v1/lps/queue/stats). It runs in the reconciler process (`lps reconciler`) and, for a new watch's first
run, in the gateway: both record their counts in the journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bson import ObjectId

from infra.clock import utcnow
from infra.enqueue import JobEnqueuer
from infra.mongo import MONGO_UNAVAILABLE
from infra.reconciler_log import ReconcilerLog
from infra.settings import Settings
from infra.watches import WatchRepository, next_run

log = logging.getLogger(__name__)


class WatchScheduler:
    def __init__(
        self, settings: Settings, watches: WatchRepository, enqueuer: JobEnqueuer, journal: ReconcilerLog
    ) -> None:
        self._settings = settings
        self._watches = watches
        self._enqueuer = enqueuer
        self._journal = journal

    async def run_once(self, now: datetime | None = None) -> Counter[str]:
        """One pass over the watches due at `now` (at most LPS_WATCH_BATCH); returns what it did."""
        now = now or utcnow()
        return await self.run(await self._watches.due(now, self._settings.watch_batch), now)

    async def run(self, watches: Sequence[dict[str, Any]], now: datetime) -> Counter[str]:
        """Take each watch's run (one conditional update each) and submit the ones taken, by priority; the counts
        go to the reconciler's journal."""
        settings = self._settings
        taken: dict[ObjectId, datetime] = {}  # watch -> the next_run_at its take set
        by_priority: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
        for watch in watches:
            following = next_run(watch, now, timezone=settings.timezone, max_jitter=settings.watch_max_jitter)
            if await self._watches.take_run(watch, next_run_at=following, now=now):
                taken[watch["_id"]] = following
                by_priority[watch.get("priority")].append(watch)
        counts: Counter[str] = Counter()
        for priority, group in by_priority.items():
            products = [{"product_code": watch["product_code"], **watch["product"]} for watch in group]
            watch_ids = {watch["product_code"]: watch["_id"] for watch in group}
            try:
                submissions = await self._enqueuer.submit_search(products, priority, watch_ids=watch_ids)
            except BaseException:
                # Not submitted (the store or the broker failed, or the caller gave up): the runs go back, so the
                # next pass takes them instead of waiting a whole period. A search that did land is answered as
                # the product's active job then, not doubled.
                await asyncio.shield(self._give_back([w for g in by_priority.values() for w in g], taken))
                raise
            for watch in group:
                taken.pop(watch["_id"])
            started: dict[ObjectId, ObjectId] = {}
            skipped: dict[ObjectId, ObjectId] = {}
            for submission in submissions:
                target = skipped if submission.duplicate else started
                target[watch_ids[submission.product_code]] = ObjectId(submission.job_id)
            await self._watches.note_runs(started, skipped)
            counts["watch_searches"] += len(started)
            counts["watch_skipped_active"] += len(skipped)
        await self._journal.add(counts, now)
        return +counts

    async def _give_back(self, watches: Sequence[dict[str, Any]], taken: dict[ObjectId, datetime]) -> None:
        for watch in watches:
            if watch["_id"] in taken:
                with contextlib.suppress(*MONGO_UNAVAILABLE):  # then the run waits for its next tick, as before
                    await self._watches.give_back_run(watch, taken_with=taken[watch["_id"]], now=utcnow())

    async def run_forever(self, stop: asyncio.Event) -> None:
        """Passes every LPS_WATCH_POLL_INTERVAL until `stop`."""
        while not stop.is_set():
            try:
                if done := await self.run_once():
                    log.info("watches run: %s", dict(done))
            except MONGO_UNAVAILABLE as unavailable:
                log.warning("watch pass cut short: %s", type(unavailable).__name__)
            except Exception:
                # One bad pass must not end the scheduler: the next one starts from the store again.
                log.exception("watch pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._settings.watch_poll_interval)
