"""Growth: every hot path at 0 stored jobs and at growing numbers of them, beside the raw store doing the same.

One database grows in place from 0 to each stored size of the mode (0, 10,000 and 50,000 in quick and full mode,
on either store; full mode takes more runs and requests). The stored jobs are a mix that repeats
every 10 documents: 4 DONE searches with realistic results (20 offers from two sources) and their 4 DONE
deliveries, 1 PENDING search (enqueued, or waiting for a retry) and 1 DEAD search (five attempts in its history):
80 % finished searches and their deliveries, the rest pending and dead, every field set as the status machine
sets it. Besides them the store keeps one round of the mix (10 jobs) from the start, so that GETs have a job to
read at size 0. Seeding is `insert_many` in batches through the runner's own client, untimed; the time it took is
reported (on the embedded store it is itself a growth figure of the raw store). Jobs end in order while the store
grows, after every cursor LPS keeps, as they would in production. Before size 0, one untimed round of everything
warms both sides up. A request or batch the store did not serve in time (503, a timeout) is counted with its time,
never dropped: at a size where the store gives up, the figure says so.

At each size, one gateway process (the real app, running throughout) and the runner measure:

- enqueue: products accepted per second, `POST /v1/lps/search` of batches of 100 new products; raw: the same
  documents in one `insert_many`, the same messages through the same `Publisher`. The jobs are deleted again after
  each run, so the stored size stays what it says;
- `GET /v1/lps/jobs/{id}` of random stored jobs, p50 and p99, one client and many concurrent clients; raw:
  `find_one` by `_id`;
- `GET /v1/lps/queue/stats`, p50, one client and many (`LPS_STATS_MAX_AGE=0`: every request starts the next
  computation, or finds one in flight, and gets the last answer meanwhile, as in production); raw: the
  computation's counts of the active set (`count_documents` of `active: true` and a status, through
  `active_jobs`). Before measuring, stats are asked until its DONE + DEAD totals count
  every stored ended job (how many calls that took is reported): a store grown by 40,000 jobs at once is not
  the steady state the figure is about;
- one claim + finish round trip on a PENDING job (`JobRepository.claim`, then `.complete` with a result); raw:
  `find_one_and_update` by `_id` and status, then `update_one` by `_id`;
- one reconciler pass (`Reconciler.run_once` as `lps reconciler` builds it, a delivery URL set so the
  missing-delivery walk runs); raw: the pass's store reads without the broker or the journal (three finds in the
  active set, one step of the minute-by-minute walk over ended searches, one lookup per search for its delivery).

Each figure is the value at the largest size ÷ the value at 0, beside the raw side's same ratio.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
from bson import ObjectId
from pymongo import DeleteMany, DeleteOne, ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import PyMongoError

from bench.enqueue import batch_of, search_documents
from bench.figures import growth_by_size, growth_figure, growth_ratio, latency_summary, median, percentile
from bench.modes import GrowthSizes
from bench.reads import RequestFailed, concurrent_latencies
from bench.stack import (
    Bench,
    BenchDatabase,
    Service,
    figure_clients,
    figure_queues,
    figure_resources,
    gateway,
    probe_deltas,
    settled_probes,
)
from infra.broker import Publisher
from infra.clock import utcnow
from infra.job_documents import ended_fields, history_entry, new_job
from infra.jobs import JobRepository
from infra.lifecycle import error_document
from infra.mongo import FIRST_ID, MainDatabase, count_by_index
from infra.reconciler import OUTBOX_LOOKBACK, Reconciler
from infra.reconciler_log import ReconcilerLog
from infra.settings import Settings
from schemas.codes import AttemptOutcome, JobErrorType, JobStatus, JobType
from tools.testbed import purge_queues

log = logging.getLogger("bench.growth")

SIDES = ("lps", "raw")
FIGURE_NAMES = (
    "growth_enqueue",
    "growth_job_one_client",
    "growth_job_many_clients",
    "growth_stats_one_client",
    "growth_stats_many_clients",
    "growth_claim_finish",
    "growth_reconciler",
    "backlog_stats_one_client",
    "backlog_stats_many_clients",
    "backlog_claim_finish_polled",
    "backlog_reconciler",
    "backlog_enqueue",
    "backlog_job_one_client",
    "backlog_overview",
    "backlog_pages",
)
#: The stored mix repeats every this many jobs.
MIX = 10
#: The gateway's DONE / DEAD totals trail the store by this (LPS_STATS_SETTLE, 5 s by default): seeded jobs are
#: counted a moment after they were stored instead of five seconds.
STATS_SETTLE = 1.0
#: The reconciler's grace (LPS_RECONCILE_GRACE, 30 s by default), for the same reason: the walk reaches them.
RECONCILE_GRACE = 2.0
#: Far beyond a figure's time: the seeded PENDING jobs (no worker takes them) must not turn "lost" mid-figure.
RECONCILE_LOST_AFTER = 86_400.0
#: Never called: a pass only creates the delivery jobs of DONE searches that have none.
OUTBOX_URL = "http://127.0.0.1:9/results"
#: Stats asked at most this often, for at most this long, before measuring at a size (the totals' catch-up).
CATCH_UP_CALLS, CATCH_UP_SECONDS = 60, 180.0
#: The first seeding spreads finish times over this much of the past; later ones since the previous size ended.
FIRST_WINDOW = OUTBOX_LOOKBACK - timedelta(hours=1)
LEASE = timedelta(minutes=3)
#: The stats figures' raw side: what LPS's counts ask of the store, by the same command.
STATS_RAW = "the counts of the active set by the count command (active: true, PENDING, then RUNNING), same concurrency"
#: Requests of the dashboard's overview per run and side.
OVERVIEW_REQUESTS = 5
#: The dashboard's other pages an operator watches a backlog through (issue 24: every page p50 <= 200 ms), each asked
#: OVERVIEW_REQUESTS times per run; the figure is the slowest page's p50, each page's in its details.
DASHBOARD_PAGES = (
    "/ui/jobs",
    "/ui/jobs?status=PENDING",
    "/ui/jobs?job_type=SEARCH&status=PENDING&delayed=true",
    "/ui/running",
    "/ui/dead",
    "/ui/watches",
)


# --- the stored jobs ------------------------------------------------------------------------------------------


def search_result(index: int, at: datetime) -> dict[str, Any]:
    """A FOUND result as `actors.search.summarize` stores it: every offer of two sources, cheapest first."""
    offers = []
    for rank in range(20):
        source = "coupang" if rank % 5 < 3 else "naver"
        offer: dict[str, Any] = {
            "source": source,
            "title": f"product {index} 128GB model {rank} (unboxed, 1-year warranty)",
            "price": 980_000 + rank * 7_300 + index % 97,
            "url": f"https://www.{source}.invalid/vp/products/{index}{rank:02d}?itemId={rank}&vendorItemId={index}",
            "product_id": f"{index}{rank:02d}",
            "delivery": "ROCKET" if source == "coupang" else "GENERAL",
            "sold_out": rank == 7,
            "is_ad": rank == 0,
            "rating": 4.5,
            "review_count": 100 + rank,
        }
        if source == "coupang":
            offer |= {"item_id": str(rank), "vendor_item_id": str(index), "unit_price": "(10g당 1,234원)"}
        if rank in (2, 11, 15):
            offer["rejected"] = "title lacks the keyword's model number"
        offers.append(offer)
    return {
        "outcome": "FOUND",
        "lowest": offers[1],
        "offers": offers,
        "searched_at": at,
        "sources": {
            "coupang": {"outcome": "FOUND", "count": 12, "ms": 2_400},
            "naver": {"outcome": "FOUND", "count": 8, "ms": 310},
        },
    }


def _search(index: int, created: datetime) -> dict[str, Any]:
    job = new_job(
        JobType.SEARCH,
        job_id=ObjectId(),
        product_code=f"G{index}",
        priority="NORMAL",
        max_attempts=5,
        now=created,
        message_id=f"growth-{index}",
        product={"keyword": f"product {index} 128GB", "target_price": 1_090_000},
    )
    job["enqueued_at"] = created  # the broker confirmed its message
    return job


def _attempt(job: dict[str, Any], started: datetime) -> None:
    job |= {"attempts": job["attempts"] + 1, "worker": "growth:1:Thread-1", "started_at": started}


def _ended(job: dict[str, Any], status: JobStatus, at: datetime) -> dict[str, Any]:
    job.pop("active")  # an ended job no longer holds its product's slot
    job |= {"status": status.name, **ended_fields(at), "updated_at": at}
    return job


def done_search(index: int, at: datetime) -> dict[str, Any]:
    job = _search(index, at - timedelta(seconds=40))
    _attempt(job, at - timedelta(seconds=6))
    job["result"] = search_result(index, at)
    job["history"] = [history_entry(job, finished_at=at, outcome=AttemptOutcome.DONE)]
    return _ended(job, JobStatus.DONE, at)


def done_delivery(search: dict[str, Any], at: datetime) -> dict[str, Any]:
    created = search["finished_at"]
    job = new_job(
        JobType.OUTBOX,
        job_id=ObjectId(),
        product_code=search["product_code"],
        priority="HIGH",
        max_attempts=8,
        now=created,
        message_id=f"{search['message_id']}-outbox",
        source_job_id=search["_id"],
    )
    job["enqueued_at"] = created
    _attempt(job, at)
    job["delivery"] = {"status_code": 200, "ms": 12, "delivered_at": at}
    job["history"] = [history_entry(job, finished_at=at, outcome=AttemptOutcome.DONE)]
    return _ended(job, JobStatus.DONE, at)


def pending_search(index: int, now: datetime) -> dict[str, Any]:
    """Enqueued and waiting in the queue, or (every other one) waiting for a retry after a blocked attempt."""
    if index // MIX % 2 == 0:
        return _search(index, now - timedelta(seconds=index % 60))
    job = _search(index, now - timedelta(minutes=2))
    _attempt(job, now - timedelta(minutes=1))
    error = error_document("BLOCKED", "coupang blocked the search: 403", now - timedelta(seconds=50))
    job["history"] = [history_entry(job, finished_at=error["at"], outcome=AttemptOutcome.RETRY, error=error)]
    job |= {"last_error": error, "run_after": now + timedelta(minutes=10), "updated_at": error["at"]}
    return job


def dead_search(index: int, at: datetime) -> dict[str, Any]:
    job = _search(index, at - timedelta(hours=1))
    job["history"] = []
    for attempt in range(5):
        _attempt(job, at - timedelta(minutes=10 * (5 - attempt)))
        outcome = AttemptOutcome.DEAD if attempt == 4 else AttemptOutcome.RETRY
        finished = job["started_at"] + timedelta(seconds=20)
        error = error_document(JobErrorType.TIMEOUT, "the attempt exceeded its time limit (120 s)", finished)
        job["history"].append(history_entry(job, finished_at=finished, outcome=outcome, error=error))
    job["last_error"] = job["history"][-1]["error"]
    return _ended(job, JobStatus.DEAD, at)


def stored_jobs(start: int, count: int, *, since: datetime, until: datetime) -> Iterator[dict[str, Any]]:
    """Jobs `start` .. `start + count` of the mix; the ended ones finish in order, evenly over (since, until)."""
    step = (until - since) / max(count, 1)
    search: dict[str, Any] | None = None
    for offset in range(count):
        index, at = start + offset, since + step * (offset + 1)
        kind = index % MIX
        if kind < 8 and search is not None and kind % 2 == 1:
            yield done_delivery(search, at)
            search = None
        elif kind < 8:
            search = done_search(index, at)
            yield search
        elif kind == 8:
            yield pending_search(index, until)
        else:
            yield dead_search(index, at)


def ended_in_mix(start: int, count: int) -> int:
    return sum(1 for index in range(start, start + count) if index % MIX != 8)


# --- one size's measurements ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Stored:
    """What the figure put in the store (not counting what its measurements add and delete again)."""

    size: int = 0
    #: Jobs of the mix stored so far, the figure's own first round included (the next job's index).
    mixed: int = 0
    ids: list[ObjectId] = field(default_factory=list)
    ended: int = 0
    #: Where the next seeding's finish times start: when the previous size's measurements ended.
    since: datetime | None = None
    #: PENDING jobs added beside the history (the backlog step).
    backlog: int = 0


@dataclass(slots=True)
class Sized:
    """Every run of every measurement at one stored size: {measurement: {"lps": [...], "raw": [...]}}."""

    runs: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def add(self, measurement: str, side: str, value: Any) -> None:
        self.runs.setdefault(measurement, {"lps": [], "raw": []})[side].append(value)


class Growth:
    def __init__(
        self,
        bench: Bench,
        sizes: GrowthSizes,
        settings: Settings,
        service: Service,
        http: aiohttp.ClientSession,
        seeder: BenchDatabase,
        main: MainDatabase,
        publisher: Publisher,
    ) -> None:
        self.bench, self.sizes, self.settings, self.service, self.http = bench, sizes, settings, service, http
        self.seeder, self.publisher = seeder, publisher
        self.raw: AsyncCollection = main.jobs()
        self.repository = JobRepository(main)
        self.reconciler_settings = settings.with_overrides(outbox_url=OUTBOX_URL)
        self.reconciler = Reconciler(self.reconciler_settings, self.repository, publisher, ReconcilerLog(main.write))
        self.stored = Stored()
        self.seed_batch = sizes.seed_batch_for(bench.store.kind)
        self.raw_cursor = (utcnow() - OUTBOX_LOOKBACK, FIRST_ID)
        self.statuses: Counter[str] = Counter()
        #: How old each stats answer's figures were when it arrived (now - its computed_at), ms.
        self.stats_ages_ms: list[float] = []
        #: The jobs an enqueue run created, deleted by `_id` afterwards.
        self.enqueued_ids: list[ObjectId] = []

    # seeding

    async def seed(self, count: int) -> float:
        """`count` more jobs of the mix, in batches; seconds it took.

        The ended ones finish in order while the store grows: each batch's between the previous batch and now (the
        figure's first 10 over the reconciler's lookback). So they come after every cursor the gateway's totals and
        the reconciler keep, as jobs ending in production do.
        """
        stored = self.stored
        since = until = stored.since or utcnow() - FIRST_WINDOW
        started = time.perf_counter()
        for offset in range(0, count, self.seed_batch):
            until = utcnow()
            batch = stored_jobs(stored.mixed + offset, min(self.seed_batch, count - offset), since=since, until=until)
            await self._insert(list(batch))
            since = until
        seconds = time.perf_counter() - started
        stored.ended += ended_in_mix(stored.mixed, count)
        stored.mixed += count
        # The gateway's totals and the reconciler's walk only take jobs that ended a settle / grace ago.
        await asyncio.sleep(max(0.0, (until - utcnow()).total_seconds() + max(STATS_SETTLE, RECONCILE_GRACE) + 0.5))
        return seconds

    async def _insert(self, batch: list[dict[str, Any]]) -> None:
        await self.seeder.jobs.insert_many(batch, ordered=False)
        self.stored.ids += [job["_id"] for job in batch]

    async def grow_to(self, size: int) -> dict[str, Any]:
        added = size - self.stored.size
        if added <= 0:
            return {}
        seconds = await self.seed(added)
        self.stored.size = size
        log.info("growth: %d jobs stored (%d added in %.1f s)", size, added, seconds)
        return {"added": added, "seconds": round(seconds, 1), "per_second": round(added / seconds, 1)}

    async def add_backlog(self, count: int) -> dict[str, Any]:
        """`count` PENDING searches as the gateway stores them once their messages are confirmed, untimed. Their
        messages are not published: no worker runs, and the measurements purge the queues after themselves."""
        started = time.perf_counter()
        for start in range(0, count, self.seed_batch):
            products = batch_of(f"backlog-{start}", min(self.seed_batch, count - start))
            documents, _ = search_documents(self.settings, products)
            confirmed = utcnow()
            await self.seeder.jobs.insert_many([document | {"enqueued_at": confirmed} for document in documents])
        seconds = time.perf_counter() - started
        self.stored.backlog = count
        log.info("growth: %d PENDING jobs added beside the history in %.1f s", count, seconds)
        return {"added": count, "seconds": round(seconds, 1), "per_second": round(count / seconds, 1)}

    async def forget(self, deletes: list[DeleteOne | DeleteMany]) -> None:
        """Delete the jobs a measurement added (by `_id` or by product) and empty the queues: the size stays."""
        for start in range(0, len(deletes), self.seed_batch):
            await self.seeder.jobs.bulk_write(deletes[start : start + self.seed_batch], ordered=False)
        await asyncio.to_thread(purge_queues, self.settings.amqp_url, figure_queues(self.settings))

    # HTTP

    async def _get(self, path: str, what: str) -> dict[str, Any]:
        async with self.http.get(f"{self.service.url}{path}") as response:
            body = await response.read()
            self.statuses[f"{what} {response.status}"] += 1
            if response.status != 200:
                raise RequestFailed(f"GET {path} answered {response.status}")
        return dict(json.loads(body))

    def http_job(self) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            await self._get(f"/v1/lps/jobs/{random.choice(self.stored.ids)}", "job")

        return call

    def raw_job(self) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            try:
                job = await self.raw.find_one({"_id": random.choice(self.stored.ids)})
            except PyMongoError as error:
                raise RequestFailed(str(error)) from None
            if job is None:
                raise RuntimeError("a stored job was not found")

        return call

    def http_stats(self) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            answer = await self._get("/v1/lps/queue/stats", "stats")
            if computed := answer.get("computed_at"):
                taken = datetime.fromisoformat(str(computed).replace("Z", "+00:00"))
                taken = taken if taken.tzinfo else taken.replace(tzinfo=UTC)
                self.stats_ages_ms.append((utcnow() - taken).total_seconds() * 1000)

        return call

    def http_page(self, path: str) -> Callable[[], Awaitable[None]]:
        """A GET whose answer is read whole: a dashboard page, or /healthz (the HTTP floor beside it)."""

        async def call() -> None:
            async with self.http.get(f"{self.service.url}{path}") as response:
                await response.read()
                self.statuses[f"{path} {response.status}"] += 1
                if response.status != 200:
                    raise RequestFailed(f"GET {path} answered {response.status}")

        return call

    async def pages_run(self, lps: bool) -> dict[str, Any]:
        """The slowest dashboard page's p50 (ms) and each page's, or /healthz as often (the HTTP floor)."""
        p50 = {}
        for path in DASHBOARD_PAGES:
            page = self.http_page(path if lps else "/healthz")
            p50[path] = latency_summary(await concurrent_latencies(1, OVERVIEW_REQUESTS, page))["p50_ms"]
        return {"p50_ms": max(p50.values()), "by_page": p50}

    def raw_stats(self) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            try:
                for status in (JobStatus.PENDING, JobStatus.RUNNING):
                    await count_by_index(self.raw, {"active": True, "status": status.name})
            except PyMongoError as error:
                raise RequestFailed(str(error)) from None

        return call

    async def catch_up_stats(self) -> dict[str, Any]:
        """Ask for stats until their ended totals count every stored ended job (bounded); what that took."""
        started, calls, counted = time.perf_counter(), 0, -1
        while calls < CATCH_UP_CALLS and time.perf_counter() - started < CATCH_UP_SECONDS:
            calls += 1
            with contextlib.suppress(RequestFailed, aiohttp.ClientError):
                stats = (await self._get("/v1/lps/queue/stats", "stats")).get("stats", {})
                counted = int(stats.get("DONE", 0)) + int(stats.get("DEAD", 0))
                if counted >= self.stored.ended:
                    break
        return {
            "calls": calls,
            "seconds": round(time.perf_counter() - started, 1),
            "ended_counted": counted,
            "ended_stored": self.stored.ended,
        }

    async def catch_up_overview(self) -> dict[str, Any]:
        """Ask for the dashboard's overview until its per-minute timeline has walked every stored ended job (its
        own cursor, at most LPS_STATS_CATCH_UP_LIMIT jobs a call): jobs seeded by the thousand at once are not the
        steady state the polled claims are about. What that took."""
        started, calls = time.perf_counter(), 0
        overview = self.http_page("/ui")
        while calls < CATCH_UP_CALLS and time.perf_counter() - started < CATCH_UP_SECONDS:
            calls += 1
            asked = time.perf_counter()
            with contextlib.suppress(RequestFailed, aiohttp.ClientError):
                await overview()
            if time.perf_counter() - asked < 0.5 and calls > 1:
                break  # answered without a long walk: caught up
        return {"calls": calls, "seconds": round(time.perf_counter() - started, 1)}

    # enqueue

    async def _post(self, products: list[dict[str, Any]]) -> int:
        url = f"{self.service.url}/v1/lps/search"
        async with self.http.post(url, json={"products": products}) as response:
            answer = await response.json()
        self.statuses[f"search {response.status}"] += 1
        if response.status == 503:
            raise RequestFailed(f"POST /v1/lps/search answered 503: {str(answer)[:300]}")
        if response.status != 200 or answer.get("result") != 0:
            raise RuntimeError(f"POST /v1/lps/search answered {response.status}: {str(answer)[:300]}")
        self.enqueued_ids += [ObjectId(job["job_id"]) for job in answer["jobs"] if job.get("job_id")]
        return sum(1 for job in answer["jobs"] if job.get("enqueued") and not job.get("duplicate"))

    async def _raw_batch(self, products: list[dict[str, Any]]) -> int:
        documents, messages = search_documents(self.settings, products)
        self.enqueued_ids += [document["_id"] for document in documents]
        try:
            await self.raw.insert_many(documents, ordered=False)
        except PyMongoError as error:
            raise RequestFailed(str(error)) from None
        return len(await self.publisher.publish(messages))

    async def enqueue_run(self, side: str, tag: str, failed: Counter[str]) -> float:
        """Products accepted per second: the clients post their batches at once; the jobs are deleted afterwards.

        A batch the store did not take in time (503, or the raw insert's timeout) is counted in `failed` and
        accepts nothing: the rate is what got through.
        """
        post = self._post if side == "lps" else self._raw_batch
        sizes = self.sizes
        batches = [
            [batch_of(f"{tag}-{number}-{batch}", sizes.batch) for batch in range(sizes.enqueue_batches_per_client)]
            for number in range(sizes.enqueue_clients)
        ]

        given_up: list[str] = []

        async def client(products: list[list[dict[str, Any]]]) -> int:
            accepted = 0
            for batch in products:
                try:
                    accepted += await post(batch)
                except RequestFailed:
                    failed[f"enqueue {side}"] += 1
                    given_up.extend(product["product_code"] for product in batch)
            return accepted

        self.enqueued_ids.clear()
        started = time.perf_counter()
        accepted = sum(await asyncio.gather(*map(client, batches)))
        seconds = time.perf_counter() - started
        # By _id (a point lookup whatever the store holds); a batch the client gave up on may still have been stored,
        # whole or in part: its products' active searches too.
        deletes: list[DeleteOne | DeleteMany] = [DeleteOne({"_id": job_id}) for job_id in self.enqueued_ids]
        search = JobType.SEARCH.name
        deletes += [DeleteMany({"product_code": code, "active": True, "job_type": search}) for code in given_up]
        await self.forget(deletes)
        return accepted / seconds

    # claim + finish

    async def claim_finish_run(self, side: str, tag: str) -> float:
        """p50 in ms of one claim + finish each on `claims` fresh PENDING searches (inserted and deleted untimed)."""
        return median(await self._claim_finish_latencies(side, tag, self.sizes.claims))

    async def claim_finish_polled_run(self, side: str, tag: str) -> float:
        """p99 in ms of claim + finish round trips for `polled_seconds` while the dashboard's overview and /metrics
        are each asked once a second (an operator's open dashboard and Prometheus): counting must not hold the store."""
        stop = asyncio.Event()

        async def poll() -> None:
            while not stop.is_set():
                for path in ("/ui", "/metrics"):
                    with contextlib.suppress(RequestFailed, aiohttp.ClientError):
                        await self.http_page(path)()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)

        poller = asyncio.create_task(poll())
        try:
            sizes = self.sizes
            milliseconds = await self._claim_finish_latencies(side, tag, sizes.polled_claims, sizes.polled_seconds)
        finally:
            stop.set()
            await poller
        return percentile(milliseconds, 0.99)

    async def _claim_finish_latencies(
        self, side: str, tag: str, count: int, seconds: float | None = None
    ) -> list[float]:
        """ms of each claim + finish on fresh PENDING searches (inserted and deleted untimed): `count` of them, or as
        many as `seconds` takes (at most `count`)."""
        documents, _ = search_documents(self.settings, batch_of(tag, count))
        await self.seeder.jobs.insert_many(documents, ordered=False)
        milliseconds: list[float] = []
        until = time.perf_counter() + (seconds if seconds is not None else float("inf"))
        try:
            for document in documents:
                if time.perf_counter() > until:
                    break
                result = {"result": search_result(0, utcnow())}
                started = time.perf_counter()
                try:
                    await (self._claim_finish if side == "lps" else self._raw_claim_finish)(document["_id"], result)
                except PyMongoError:
                    self.statuses[f"claim + finish {side} failed"] += 1  # counted with its time, never dropped
                milliseconds.append((time.perf_counter() - started) * 1000)
        finally:
            await self.forget([DeleteOne({"_id": document["_id"]}) for document in documents])
        return milliseconds

    async def _claim_finish(self, job_id: ObjectId, output: dict[str, Any]) -> None:
        now = utcnow()
        job = await self.repository.claim(job_id, worker="growth:1:Thread-1", now=now, lease_until=now + LEASE)
        if job is None or not await self.repository.complete(job, now=utcnow(), output=output):
            raise RuntimeError(f"claim + finish of {job_id} did not go through")

    async def _raw_claim_finish(self, job_id: ObjectId, output: dict[str, Any]) -> None:
        now = utcnow()
        job = await self.raw.find_one_and_update(
            {"_id": job_id, "status": JobStatus.PENDING.name},
            {"$set": {"status": JobStatus.RUNNING.name, "started_at": now}, "$inc": {"attempts": 1}},
            return_document=ReturnDocument.AFTER,
        )
        done = await self.raw.update_one(
            {"_id": job_id},
            {"$set": {"status": JobStatus.DONE.name, "finished_at": utcnow(), **output}, "$unset": {"active": ""}},
        )
        if job is None or done.modified_count != 1:
            raise RuntimeError(f"raw claim + finish of {job_id} did not go through")

    # reconciler

    async def reconciler_run(self, side: str, did: Counter[str], failed: Counter[str]) -> float:
        """Median ms of `passes` passes in a row (a pass the store cut short counts with its time, and in `failed`)."""
        milliseconds = []
        for _ in range(self.sizes.passes):
            started = time.perf_counter()
            try:
                if side == "lps":
                    did.update(await self.reconciler.run_once())
                else:
                    did["raw_deliveries_checked"] += await self._raw_pass()
            except PyMongoError:
                failed[f"reconciler {side}"] += 1
            milliseconds.append((time.perf_counter() - started) * 1000)
        return median(milliseconds)

    async def _raw_pass(self) -> int:
        """The store reads of a pass: three finds in the active set, one batch of DONE searches, their deliveries."""
        settings = self.reconciler_settings
        now = utcnow()
        before, lost = now - timedelta(seconds=RECONCILE_GRACE), now - timedelta(seconds=RECONCILE_LOST_AFTER)
        limit = settings.reconcile_batch
        pending, running = JobStatus.PENDING.name, JobStatus.RUNNING.name
        for query in (
            {"active": True, "status": pending, "enqueued_at": {"$exists": False}, "created_at": {"$lt": before}},
            {"active": True, "status": pending, "enqueued_at": {"$lt": lost}, "run_after": {"$lt": lost}},
            {"active": True, "status": running, "lease_until": {"$lt": before}},
        ):
            await self.raw.find(query).limit(limit).to_list()
        page = await self.repository.ended_after(
            self.raw_cursor,
            until=before,
            limit=limit,
            match={"status": JobStatus.DONE.name, "job_type": JobType.SEARCH.name},
            projection={"_id": 1},
        )
        done = page.jobs
        outbox = JobType.OUTBOX.name
        await asyncio.gather(
            *(self.raw.find_one({"source_job_id": job["_id"], "job_type": outbox}, {"_id": 1}) for job in done)
        )
        self.raw_cursor = page.cursor
        return len(done)

    # everything at one size

    async def warm_up(self) -> None:
        """One untimed round of everything first: the first calls of the gateway and of the runner (imports,
        connections, the store's first queries) must not be taken for the cost at size 0."""
        did: Counter[str] = Counter()
        failed: Counter[str] = Counter()
        for side in SIDES:
            lps = side == "lps"
            await concurrent_latencies(1, 3, self.http_job() if lps else self.raw_job())
            await concurrent_latencies(1, 2, self.http_stats() if lps else self.raw_stats())
            await self.claim_finish_run(side, f"warm-c-{side}")
            await self.reconciler_run(side, did, failed)
            await self.enqueue_run(side, f"warm-e-{side}", failed)

    async def measure_at(self, size: int) -> Sized:
        sizes, sized = self.sizes, Sized()
        sized.details["stats_catch_up"] = await self.catch_up_stats()
        sized.details["overview_catch_up"] = await self.catch_up_overview()
        self.statuses.clear()
        # Both sides open their connections before anything is timed.
        await concurrent_latencies(sizes.clients, 1, self.http_job())
        await concurrent_latencies(sizes.clients, 1, self.raw_job())
        probe_dir = self.bench.probe_dir(self.settings)
        stats_commands: Counter[str] = Counter()
        stats_requests = 0
        self.stats_ages_ms.clear()
        did: Counter[str] = Counter()
        failed: Counter[str] = Counter()
        for run in range(sizes.runs):
            sides = ("lps", "raw") if run % 2 == 0 else ("raw", "lps")
            for side in sides:
                lps = side == "lps"
                job, stats = (self.http_job(), self.http_stats()) if lps else (self.raw_job(), self.raw_stats())
                sized.add("job_one", side, latency_summary(await concurrent_latencies(1, sizes.job_requests_solo, job)))
                many = await concurrent_latencies(sizes.clients, sizes.job_requests_per_client, job)
                sized.add("job_many", side, latency_summary(many))
                before = await settled_probes(probe_dir) if lps else {}
                sized.add(
                    "stats_one", side, latency_summary(await concurrent_latencies(1, sizes.stats_requests_solo, stats))
                )
                many = await concurrent_latencies(sizes.clients, sizes.stats_requests_per_client, stats)
                sized.add("stats_many", side, latency_summary(many))
                if lps:
                    commands = probe_deltas(before, await settled_probes(probe_dir)).get("gateway", {})
                    stats_commands.update(commands.get("commands", {}))
                    stats_requests += sizes.stats_requests_solo + sizes.clients * sizes.stats_requests_per_client
                sized.add("claim_finish", side, await self.claim_finish_run(side, f"c{size}-{run}-{side}"))
                polled = await self.claim_finish_polled_run(side, f"p{size}-{run}-{side}")
                sized.add("claim_finish_polled", side, polled)
                page = self.http_page("/ui" if lps else "/healthz")
                sized.add("overview", side, latency_summary(await concurrent_latencies(1, OVERVIEW_REQUESTS, page)))
                sized.add("pages", side, await self.pages_run(lps))
                sized.add("reconciler", side, await self.reconciler_run(side, did, failed))
                sized.add("enqueue", side, await self.enqueue_run(side, f"e{size}-{run}-{side}", failed))
        sized.details |= {
            "http_answers": dict(self.statuses),
            "gateway_mongo_commands_per_stats_request": {
                name: round(count / max(stats_requests, 1), 2) for name, count in sorted(stats_commands.items())
            },
            "reconciler_did": dict(did),
            "failed": dict(failed),
            "active_jobs": self.stored.mixed // MIX + (1 if self.stored.mixed % MIX > 8 else 0) + self.stored.backlog,
            "stats_answer_age_ms": {
                "p50": round(percentile(self.stats_ages_ms, 0.5), 1),
                "max": round(max(self.stats_ages_ms, default=0.0), 1),
            },
        }
        self.stored.since = utcnow()
        return sized


# --- the figure -----------------------------------------------------------------------------------------------


async def measure(bench: Bench, sizes: GrowthSizes) -> list[dict[str, Any]]:
    stored_sizes = sizes.stored_for(bench.store.kind)
    if stored_sizes[0] != 0 or list(stored_sizes) != sorted(set(stored_sizes)) or any(s % MIX for s in stored_sizes):
        raise ValueError(f"growth sizes must start at 0, grow, and be multiples of {MIX}: {stored_sizes}")
    # Every stats request computes (or joins the computation in flight): a cached answer measures nothing.
    settings = bench.settings_for(
        "growth",
        stats_max_age=0.0,
        stats_settle=STATS_SETTLE,
        reconcile_grace=RECONCILE_GRACE,
        reconcile_lost_after=RECONCILE_LOST_AFTER,
    )
    async with (
        figure_resources(settings),
        figure_clients(settings, [settings.job(job_type).queue for job_type in JobType]) as clients,
        gateway(settings, bench) as service,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=sizes.clients)) as http,
    ):
        # The runner's client (long timeouts) seeds and deletes in batches; what is timed goes like the gateway's.
        growth = Growth(bench, sizes, settings, service, http, clients.database, clients.main, clients.publisher)
        await growth.seed(MIX)  # the jobs GETs read at size 0
        await growth.warm_up()
        measured: dict[int, Sized] = {}
        seeding: dict[str, Any] = {}
        for size in stored_sizes:
            if grown := await growth.grow_to(size):
                seeding[str(size)] = grown
            started = time.perf_counter()
            measured[size] = await growth.measure_at(size)
            log.info("growth: measured at %d stored jobs in %.0f s", size, time.perf_counter() - started)
        largest = stored_sizes[-1]
        seeding["backlog"] = await growth.add_backlog(sizes.backlog)
        started = time.perf_counter()
        with_backlog = await growth.measure_at(largest)
        log.info(
            "growth: measured with %d PENDING beside %d in %.0f s",
            sizes.backlog,
            largest,
            time.perf_counter() - started,
        )
        backlog = {0: measured[largest], sizes.backlog: with_backlog}
        return _figures(bench, sizes, measured, seeding) + _backlog_figures(bench, sizes, backlog, largest)


def _figures(bench: Bench, sizes: GrowthSizes, measured: dict[int, Sized], seeding: dict[str, Any]) -> list[dict]:
    store = bench.store.label
    stored = sorted(measured)
    common = {
        "stored_jobs": stored,
        "mix": "per 10 stored jobs: 4 DONE searches (20 offers each) + their 4 DONE deliveries, 1 PENDING, 1 DEAD",
        "plus": "10 jobs of the same mix stored before size 0 (what GETs read there)",
        "runs": sizes.runs,
    }

    def runs(measurement: str, side: str, key: str | None = None) -> dict[int, list[float]]:
        return {size: [run[key] if key else run for run in measured[size].runs[measurement][side]] for size in stored}

    def by_size(*keys: str) -> dict[str, dict[str, Any]]:
        return {str(size): {key: measured[size].details[key] for key in keys} for size in stored}

    def latency(measurement: str, title: str, clients: int, requests: int, raw: str, **extra: Any) -> dict[str, Any]:
        lps99, raw99 = runs(measurement, "lps", "p99_ms"), runs(measurement, "raw", "p99_ms")
        failed = {
            str(size): {side: sum(run["errors"] for run in measured[size].runs[measurement][side]) for side in SIDES}
            for size in stored
        }
        return growth_figure(
            title,
            "ms (p50)",
            runs(measurement, "lps", "p50_ms"),
            runs(measurement, "raw", "p50_ms"),
            store=store,
            target=extra.pop("target", None),
            settings=common | {"clients": clients, "requests_per_client": requests, "raw": raw},
            details={
                "p99_ms_by_size": growth_by_size(lps99, raw99),
                "ratio_p99": growth_ratio(lps99),
                "baseline_ratio_p99": growth_ratio(raw99),
                "failed_requests_by_size": failed,
            }
            | extra,
        )

    job_raw = "find_one by _id from the runner (the handler's one read), same concurrency"
    stats_raw = STATS_RAW
    stats_extra = {"stats_max_age_s": 0.0, "stats_settle_s": STATS_SETTLE}
    return [
        growth_figure(
            "Growth: enqueue, products accepted per second, POST /v1/lps/search",
            "products/s",
            runs("enqueue", "lps"),
            runs("enqueue", "raw"),
            store=store,
            target={"min": 0.7, "of": "ratio"},
            settings=common
            | {
                "clients": sizes.enqueue_clients,
                "batch": sizes.batch,
                "batches_per_client": sizes.enqueue_batches_per_client,
                "raw": "the same documents in one insert_many + the same messages through the same Publisher",
                "after_each_run": "its jobs deleted by _id, its queue purged (untimed)",
            },
            details={
                "seeding_by_size": seeding,
                "store_failures_by_size": by_size("failed"),
                "http_answers_by_size": by_size("http_answers"),
            },
        ),
        latency(
            "job_one",
            "Growth: GET /v1/lps/jobs/{id}, one client",
            1,
            sizes.job_requests_solo,
            job_raw,
            target={"max": 10.0, "of": "value"},
        ),
        latency(
            "job_many",
            f"Growth: GET /v1/lps/jobs/{{id}}, {sizes.clients} clients",
            sizes.clients,
            sizes.job_requests_per_client,
            job_raw,
            http_answers_by_size=by_size("http_answers"),
        ),
        latency(
            "stats_one",
            "Growth: GET /v1/lps/queue/stats, one client",
            1,
            sizes.stats_requests_solo,
            stats_raw,
            gateway=stats_extra,
        ),
        latency(
            "stats_many",
            f"Growth: GET /v1/lps/queue/stats, {sizes.clients} clients",
            sizes.clients,
            sizes.stats_requests_per_client,
            stats_raw,
            target={"max": 50.0, "of": "value"},
            gateway=stats_extra,
            by_size=by_size("active_jobs", "stats_catch_up", "gateway_mongo_commands_per_stats_request"),
        ),
        growth_figure(
            "Growth: one claim + finish round trip (JobRepository.claim, .complete)",
            "ms (p50)",
            runs("claim_finish", "lps"),
            runs("claim_finish", "raw"),
            store=store,
            settings=common
            | {
                "round_trips_per_run": sizes.claims,
                "raw": "find_one_and_update by _id and status PENDING, then update_one by _id (DONE, the result)",
            },
        ),
        growth_figure(
            "Growth: one reconciler pass (Reconciler.run_once, deliveries walked)",
            "ms",
            runs("reconciler", "lps"),
            runs("reconciler", "raw"),
            store=store,
            settings=common
            | {
                "passes_per_run": sizes.passes,
                "reconcile_batch": bench.base.reconcile_batch,
                "reconcile_grace_s": RECONCILE_GRACE,
                "reconcile_lost_after_s": RECONCILE_LOST_AFTER,
                "raw": "the pass's store reads: three finds in the active set (limit batch), one step of the "
                "minute-by-minute walk over DONE searches after a cursor, one find_one per search for its delivery; "
                "no broker, no journal",
            },
            details={
                "what_the_passes_did_by_size": by_size("reconciler_did"),
                "store_failures_by_size": by_size("failed"),
                "note": "at size 0 no pass finds a DONE search to check (the warm-up pass walked the first 4)",
            },
        ),
    ]


def _backlog_figures(bench: Bench, sizes: GrowthSizes, measured: dict[int, Sized], history: int) -> list[dict]:
    """Every hot path with the backlog's PENDING jobs beside the history ÷ the same without them (issue 24's targets:
    the value, or the ratio where the target is relative)."""
    waiting = sorted(measured)
    common = {
        "stored_jobs": history,
        "pending_jobs_waiting": waiting,
        "backlog_is": "PENDING searches as the gateway stores them (enqueued), beside the history; no worker runs",
        "runs": sizes.runs,
    }

    def runs(measurement: str, side: str, key: str | None) -> dict[int, list[float]]:
        return {n: [run[key] if key else run for run in measured[n].runs[measurement][side]] for n in waiting}

    def figure(
        measurement: str, title: str, unit: str, key: str | None, target: dict[str, Any], raw: str, **details: Any
    ) -> dict[str, Any]:
        return growth_figure(
            title,
            unit,
            runs(measurement, "lps", key),
            runs(measurement, "raw", key),
            store=bench.store.label,
            target=target,
            settings=common | {"raw": raw},
            details=details,
            stored="PENDING jobs waiting",
        )

    ages = {str(n): measured[n].details["stats_answer_age_ms"] for n in waiting}
    stats_raw = STATS_RAW
    job_raw = "find_one by _id from the runner, one client"
    return [
        figure(
            "stats_one",
            "Backlog: GET /v1/lps/queue/stats p99, one client",
            "ms (p99)",
            "p99_ms",
            {"max": 100.0, "of": "value"},
            stats_raw,
            stats_answer_age_ms=ages,
        ),
        figure(
            "stats_many",
            f"Backlog: GET /v1/lps/queue/stats p99, {sizes.clients} clients",
            "ms (p99)",
            "p99_ms",
            {"max": 100.0, "of": "value"},
            stats_raw,
        ),
        figure(
            "claim_finish_polled",
            "Backlog: claim + finish p99 while /ui and /metrics are each polled once a second",
            "ms (p99)",
            None,
            {"max": 1.5, "of": "ratio"},
            f"find_one_and_update + update_one by _id, polled the same way, for {sizes.polled_seconds:g} s",
        ),
        figure(
            "reconciler",
            "Backlog: one reconciler pass (Reconciler.run_once)",
            "ms",
            None,
            {"max": 200.0, "of": "value"},
            "the pass's store reads without the broker or the journal",
        ),
        figure(
            "enqueue",
            "Backlog: enqueue, products accepted per second",
            "products/s",
            None,
            {"min": 0.7, "of": "ratio"},
            "the same documents in one insert_many + the same messages",
        ),
        figure(
            "job_one",
            "Backlog: GET /v1/lps/jobs/{id} p50, one client",
            "ms (p50)",
            "p50_ms",
            {"max": 10.0, "of": "value"},
            job_raw,
        ),
        figure(
            "overview",
            "Backlog: the dashboard's overview, GET /ui p50",
            "ms (p50)",
            "p50_ms",
            {"max": 200.0, "of": "value"},
            "GET /healthz on the same gateway (the HTTP floor)",
        ),
        figure(
            "pages",
            "Backlog: the slowest other dashboard page, p50",
            "ms (p50)",
            "p50_ms",
            {"max": 200.0, "of": "value"},
            "GET /healthz on the same gateway (the HTTP floor)",
            p50_by_page={str(n): [run["by_page"] for run in measured[n].runs["pages"]["lps"]] for n in waiting},
        ),
    ]
