"""The embedded store's envelope: how many stored jobs it holds while claims, listing pages and stats stay within their
targets, measured by `python -m bench.store_envelope` (README.md, "Its envelope"; BENCHMARKS.md). Past it `lps dev`
says so once and points to MongoDB."""

from __future__ import annotations

#: Stored jobs in memory (`lps mongo`) within the targets: the largest size measured with every target met (30,000;
#: at 50,000 the stats' counts, which grow with the active set, took 119 ms).
MEMORY_JOBS = 30_000
#: Stored jobs in a SQLite file (`lps mongo --data FILE`) within the targets: a claim grows with the file (40 ms at
#: 500, 50 ms at 1,000, 0.7 s at 30,000), as mongoeco's SQLite planner probes every document after each write.
DATA_FILE_JOBS = 500

#: The targets (milliseconds, median): a claim (the worker's update by `_id`), a listing page (51 jobs of a status,
#: newest first), the stats' counts (PENDING and RUNNING of each job type, by the `count` command).
CLAIM_MS = 50.0
PAGE_MS = 200.0
STATS_MS = 100.0

MONGODB_HINT = "use MongoDB: `docker compose up -d mongo` (docker-compose.yml) and set LPS_MONGO_URL"


def limit(persistent: bool) -> int:
    return DATA_FILE_JOBS if persistent else MEMORY_JOBS


def past_envelope(stored_jobs: int, *, persistent: bool) -> str | None:
    """What to say when `stored_jobs` is past the envelope (None within it)."""
    jobs = limit(persistent)
    if stored_jobs <= jobs:
        return None
    where = "in its SQLite file (--data)" if persistent else "in memory"
    return (
        f"the embedded store holds {stored_jobs:,} jobs {where}, past its envelope of {jobs:,} "
        f"(embedded_store/README.md): claims, pages and stats slow down from here; {MONGODB_HINT}"
    )
