"""What the gateway, the workers and the reconciler share, below them all (it imports only `schemas`).

- The job store: the `jobs` collection and every transition of a job, one conditional update each (`jobs.py`), how a
  request's jobs are recorded and published (`enqueue.py`), the job listing's query planner (`job_listing.py`: which
  index serves a page, how far it walks), job counts whose cost does not grow with history
  (`job_counts.py`), what ended in the last minutes (`timeline.py`), and the walk by minute that the periodic reads
  use instead of ranges (`minutes.py`, pure).
- A job's lifecycle: what follows an attempt, retry or DEAD and the backoff (`lifecycle.py`, pure).
- Watches: the `watches` collection (`watches.py`), the scheduler that turns due ones into searches (`scheduler.py`)
  and whether a watch's result is delivered (`notify.py`, pure).
- The fleet-wide limits: each source's pacing and circuit breaker, kept in MongoDB (the `source_limits` package),
  and each proxy's record (`proxy_ledger.py`).
- What is kept for people: price history, the reconciler's totals, page snapshots, dashboard sign-ins
  (`price_history.py`, `reconciler_log.py`, `snapshots.py`, `ui_sessions.py`).
- Beside those: connections and indexes (`mongo.py` for MongoDB, `broker.py` for RabbitMQ through Dramatiq), the
  settings (`settings.py`), the clock (`clock.py`) and logging (`logs.py`).

The pure modules (`lifecycle.py`, `notify.py`, `minutes.py`, and `schemas/schedule.py`: when a watch runs next)
reach no driver (pymongo, pika, Dramatiq, aiohttp, Playwright), directly or through other modules:
tests/unit/test_layout.py keeps it so.
"""
