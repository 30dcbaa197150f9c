"""How big each figure's runs are in each mode. Every size the report shows comes from here.

The embedded store checks unique indexes by scanning the collection on every insert (cost grows with
its size), and serves one command at a time: on it, sizes stay small and every run starts from an
empty collection. A real MongoDB (`LPS_MONGO_URL`) takes the larger `*_mongodb` sizes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EnqueueSizes:
    clients: int
    batch: int
    batches_per_client: int
    batches_per_client_mongodb: int
    runs: int

    def batches(self, store_kind: str) -> int:
        return self.batches_per_client_mongodb if store_kind == "mongodb" else self.batches_per_client


@dataclass(frozen=True, slots=True)
class PipelineSizes:
    jobs: int
    jobs_mongodb: int
    warmup_jobs: int
    runs: int
    #: The real pools' defaults (`lps worker search|outbox`); the no-op baseline gets the search pool's size.
    search_threads: int = 2
    outbox_threads: int = 16

    def jobs_for(self, store_kind: str) -> int:
        return self.jobs_mongodb if store_kind == "mongodb" else self.jobs


@dataclass(frozen=True, slots=True)
class SearchSizes:
    #: LPS rounds; the first warms the worker up (Chromium launch) and only counts for memory.
    rounds: int
    round_size: int
    raw_round_size: int
    raw_warmup: int
    threads: int = 2


@dataclass(frozen=True, slots=True)
class ReadsSizes:
    stored_jobs: int
    stored_jobs_mongodb: int
    clients: int
    job_requests_per_client: int
    stats_requests_per_client: int
    runs: int
    #: /queue/stats aggregates the whole collection per call: on the embedded store one round takes ~30 s.
    stats_runs: int

    def jobs_for(self, store_kind: str) -> int:
        return self.stored_jobs_mongodb if store_kind == "mongodb" else self.stored_jobs


@dataclass(frozen=True, slots=True)
class GrowthSizes:
    """The growth figure: the same measurements at each stored size, the store grown in place between them.

    Sizes start at 0 (the figure is each value at the largest size ÷ its value at 0) and are multiples of 10
    (the stored mix repeats every 10 jobs).
    """

    stored: tuple[int, ...]
    stored_mongodb: tuple[int, ...]
    #: Concurrent clients of the many-clients measurements (GET job, stats).
    clients: int
    #: Enqueue: clients posting at once, batches of `batch` new products each, per run and side.
    enqueue_clients: int
    enqueue_batches_per_client: int
    job_requests_solo: int
    job_requests_per_client: int
    stats_requests_solo: int
    stats_requests_per_client: int
    #: Claim + finish round trips per run and side, each on its own PENDING job.
    claims: int
    #: Reconciler passes per run (and as many raw passes).
    passes: int
    runs: int
    #: Upper bound of the whole figure (seeding included), in place of the mode's `figure_timeout`.
    timeout: float
    #: PENDING jobs added after the largest stored size (a catalogue sent at once, no worker taking them): every hot
    #: path is measured again with them beside the history (issue 24). 0: no backlog step.
    backlog: int = 0
    #: The polled claims: round trips run this long while the dashboard and /metrics are each polled once a second,
    #: each on its own of `polled_claims` PENDING searches stored for the run (untimed; more than it gets through).
    polled_seconds: float = 5.0
    polled_claims: int = 2_000
    batch: int = 100
    seed_batch: int = 1_000
    #: The embedded server answers one command at a time; since its patch (embedded_store/inserts.py) its wire inserts
    #: no longer scan the collection, so it takes the same batches as MongoDB.
    seed_batch_embedded: int = 1_000

    def stored_for(self, store_kind: str) -> tuple[int, ...]:
        return self.stored_mongodb if store_kind == "mongodb" else self.stored

    def seed_batch_for(self, store_kind: str) -> int:
        return self.seed_batch if store_kind == "mongodb" else self.seed_batch_embedded


@dataclass(frozen=True, slots=True)
class PagesSizes:
    """The dashboard pages figure: every page at one stored size, one client."""

    stored_jobs: int
    stored_jobs_mongodb: int
    requests: int
    runs: int
    #: Upper bound of the whole figure (seeding included), in place of the mode's `figure_timeout`.
    timeout: float
    seed_batch: int = 1_000

    def jobs_for(self, store_kind: str) -> int:
        return self.stored_jobs_mongodb if store_kind == "mongodb" else self.stored_jobs


@dataclass(frozen=True, slots=True)
class PacingSizes:
    """The pacing figure: `searches` submitted at once to `pools` search pools against a shop that refuses a client
    over `rate` searches a second for `block_for` seconds; the paced side paces at `pace`.

    Retry and breaker timings left None keep LPS's defaults (the full run); smaller modes shorten them so that the
    unpaced side's blocked jobs end within minutes.
    """

    searches: int
    block_for: float
    #: Upper bound of the whole figure (both sides), in place of the mode's `figure_timeout`.
    timeout: float
    pools: int = 2
    threads: int = 2
    #: The shop refuses a client over this many searches a second.
    rate: int = 2
    #: The paced side's LPS_SOURCE_RATES for coupang: the shop's own rate, as the issue sets it. Searches reach
    #: the shop with a spread, so some come closer than the pace; the adaptive pace (LPS_PACE_RECOVERY) slows the
    #: fleet down at the first refusal (BENCHMARKS.md).
    pace: str = "2/s"
    retry_min_backoff: float | None = None
    retry_max_backoff: float | None = None
    breaker_cooldown: float | None = None
    #: The issue's targets for the paced side.
    max_attempts_per_job: float = 1.2
    min_done_complete: float = 0.99


@dataclass(frozen=True, slots=True)
class WatchSizes:
    """The watch figure: one scheduler pass with `due` watches due among each number of stored watches."""

    stored: tuple[int, ...]
    due: int
    #: Timed passes per size (and as many raw ones).
    runs: int
    #: The target: a pass at the largest size costs at most this many times one at the smallest (O(due)).
    max_ratio: float = 1.5
    seed_batch: int = 1_000


@dataclass(frozen=True, slots=True)
class QualitySizes:
    """The search-quality figure: the whole saved-page corpus, `runs` times over (ms per case is their median)."""

    runs: int
    #: Upper bound of the whole figure, in place of the mode's `figure_timeout`: the corpus is a thousand cases and
    #: more, which a machine running the matcher five times slower than usual, under a test suite's load, answers in
    #: minutes (a smoke run's single pass passed 120 s in CI on 2026-12-05).
    timeout: float


@dataclass(frozen=True, slots=True)
class PrioritySizes:
    """The priority figure: `low_jobs` LOW searches queued before the pool starts, then `high_jobs` HIGH ones."""

    low_jobs: int
    high_jobs: int
    #: Each LOW search takes this long (static source, `#slow=`): the backlog outlasts the HIGH probes.
    low_search_seconds: float = 0.1
    #: Seconds between one HIGH job's start and the next one's POST.
    high_interval: float = 1.0
    threads: int = 2
    #: "Starts within a few seconds" (issue 23).
    target_seconds: float = 5.0


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    enqueue: EnqueueSizes
    pipeline: PipelineSizes
    search: SearchSizes
    reads: ReadsSizes
    growth: GrowthSizes
    pacing: PacingSizes
    watches: WatchSizes
    pages: PagesSizes
    quality: QualitySizes
    priority: PrioritySizes
    #: Upper bound of one figure, set-up included: a stuck figure fails instead of hanging.
    figure_timeout: float

    def timeout_for(self, figure: str) -> float:
        if figure in ("growth", "pacing", "pages", "quality"):
            sizes: GrowthSizes | PacingSizes | PagesSizes | QualitySizes = getattr(self, figure)
            return sizes.timeout
        return self.figure_timeout


MODES = {
    # The test's smoke check: every figure once, tiny, to prove the runner works (numbers mean little).
    "smoke": Mode(
        "smoke",
        EnqueueSizes(clients=2, batch=50, batches_per_client=1, batches_per_client_mongodb=1, runs=1),
        PipelineSizes(jobs=20, jobs_mongodb=20, warmup_jobs=2, runs=1),
        SearchSizes(rounds=2, round_size=2, raw_round_size=2, raw_warmup=1),
        ReadsSizes(
            stored_jobs=100,
            stored_jobs_mongodb=100,
            clients=10,
            job_requests_per_client=2,
            stats_requests_per_client=1,
            runs=1,
            stats_runs=1,
        ),
        GrowthSizes(
            stored=(0, 200),
            stored_mongodb=(0, 200),
            clients=10,
            enqueue_clients=1,
            enqueue_batches_per_client=1,
            job_requests_solo=5,
            job_requests_per_client=1,
            stats_requests_solo=2,
            stats_requests_per_client=1,
            claims=3,
            passes=1,
            runs=1,
            timeout=600,
            backlog=300,
            # Storing and deleting 2,000 PENDING searches for each of the six polled runs took ~100 s on the embedded
            # store; a second's poll or two shows the same code works.
            polled_seconds=2.0,
            polled_claims=100,
        ),
        # A search takes ~3 s of Chromium here: 4 (one per thread of the two pools) keep each side ~10 s.
        PacingSizes(
            searches=4, block_for=2.0, timeout=600, retry_min_backoff=0.5, retry_max_backoff=2.0, breaker_cooldown=2.0
        ),
        WatchSizes(stored=(100, 500), due=10, runs=1),
        PagesSizes(stored_jobs=200, stored_jobs_mongodb=200, requests=3, runs=1, timeout=600),
        QualitySizes(runs=1, timeout=600),
        PrioritySizes(low_jobs=100, high_jobs=1),
        # Bounds against a hung run, not speed targets: a machine running Python five times slower than usual,
        # under the suite's load, passed 120 s and 180 s (CI on 2026-12-05).
        figure_timeout=600,
    ),
    "quick": Mode(
        "quick",
        EnqueueSizes(clients=8, batch=100, batches_per_client=1, batches_per_client_mongodb=5, runs=3),
        PipelineSizes(jobs=100, jobs_mongodb=500, warmup_jobs=10, runs=3),
        SearchSizes(rounds=6, round_size=6, raw_round_size=6, raw_warmup=2),
        ReadsSizes(
            stored_jobs=500,
            stored_jobs_mongodb=50_000,
            clients=100,
            job_requests_per_client=5,
            stats_requests_per_client=1,
            runs=3,
            stats_runs=1,
        ),
        # The sizes the targets are set at; fewer runs and requests than full mode.
        GrowthSizes(
            stored=(0, 10_000, 50_000),
            stored_mongodb=(0, 10_000, 50_000),
            clients=100,
            enqueue_clients=2,
            enqueue_batches_per_client=1,
            job_requests_solo=30,
            job_requests_per_client=2,
            stats_requests_solo=5,
            stats_requests_per_client=1,
            claims=10,
            passes=3,
            runs=3,
            timeout=3600,
            backlog=100_000,
        ),
        PacingSizes(
            searches=60,
            block_for=10.0,
            timeout=900,
            retry_min_backoff=2.0,
            retry_max_backoff=30.0,
            breaker_cooldown=10.0,
        ),
        WatchSizes(stored=(1_000, 50_000), due=100, runs=5),
        # The size: every page at 50,000 stored jobs (seeding takes ~5 minutes on the embedded store).
        PagesSizes(stored_jobs=50_000, stored_jobs_mongodb=50_000, requests=10, runs=3, timeout=1800),
        QualitySizes(runs=3, timeout=1200),
        # The backlog: 2,000 LOW searches queued.
        PrioritySizes(low_jobs=2_000, high_jobs=5),
        figure_timeout=420,
    ),
    # The sizes the figures are defined with: 300 searches (RSS after 30 and 300), 2,000 / 50,000 stored jobs.
    "full": Mode(
        "full",
        EnqueueSizes(clients=8, batch=100, batches_per_client=1, batches_per_client_mongodb=10, runs=5),
        PipelineSizes(jobs=300, jobs_mongodb=2_000, warmup_jobs=20, runs=5),
        SearchSizes(rounds=10, round_size=30, raw_round_size=30, raw_warmup=2),
        ReadsSizes(
            stored_jobs=2_000,
            stored_jobs_mongodb=50_000,
            clients=100,
            job_requests_per_client=10,
            stats_requests_per_client=1,
            runs=5,
            stats_runs=3,
        ),
        GrowthSizes(
            stored=(0, 10_000, 50_000),
            stored_mongodb=(0, 10_000, 50_000),
            clients=100,
            enqueue_clients=4,
            enqueue_batches_per_client=1,
            job_requests_solo=50,
            job_requests_per_client=3,
            stats_requests_solo=10,
            stats_requests_per_client=2,
            claims=20,
            passes=5,
            runs=5,
            timeout=7200,
            backlog=100_000,
        ),
        PacingSizes(searches=300, block_for=30.0, timeout=3600),
        WatchSizes(stored=(1_000, 50_000), due=100, runs=9),
        PagesSizes(stored_jobs=50_000, stored_jobs_mongodb=50_000, requests=20, runs=5, timeout=2400),
        QualitySizes(runs=10, timeout=3600),
        PrioritySizes(low_jobs=2_000, high_jobs=20),
        figure_timeout=2400,
    ),
}
