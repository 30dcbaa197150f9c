"""Finding a job by its words (`GET /v1/lps/jobs?q=`, issue 36.3) at a stored size: 100,000 jobs by default.

    python -m bench.words                 # the embedded store, 100,000 jobs
    python -m bench.words --jobs 20000    # a smaller size
    LPS_MONGO_URL=… python -m bench.words # a real MongoDB (a database of its own, dropped afterwards)

The store holds the growth figure's mix (`bench.growth.stored_jobs`: DONE searches and their deliveries, PENDING
and DEAD searches), each search given the `words` of one keyword of a catalogue of 400 (brand x product x line, so
a brand's word is in ~1 search in 10, a product's in ~1 in 20, a keyword's own line in ~1 in 400), as the gateway
stores them. One gateway (the real app) answers `GET /v1/lps/jobs?q=…&limit=50` for: a common word, a rarer word, two
words (any order), two words with `status=DONE`, and a word no job has; each `REQUESTS` times in a row, after one
warm-up call. The raw baseline is the same listing's store read (`JobRepository.newest`) from the runner. Target: the
dashboard pages' (≤ 200 ms p50 at the stored size).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import time
import uuid
from datetime import timedelta
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bench.growth import stored_jobs
from embedded_store.server import embedded_mongo
from infra.clock import utcnow
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from infra.text.search_words import job_words, query_words
from service.app import create_app

BRANDS = ["삼성", "애플", "엘지", "샤오미", "소니", "다이슨", "필립스", "로지텍", "앤커", "보스"]
PRODUCTS = [
    "무선이어폰", "보조배터리", "블루투스스피커", "충전케이블", "노트북거치대", "기계식키보드", "무선마우스",
    "공기청정기", "전동칫솔", "헤어드라이어", "스마트워치", "태블릿케이스", "모니터암", "게이밍헤드셋", "웹캠",
    "휴대폰케이스", "무선충전기", "외장하드", "USB허브", "로봇청소기",
]  # fmt: skip
LINES = ["프로", "에어"]
TARGET_MS = 200.0
REQUESTS = 20
QUERIES = {
    "a brand's word (~1 in 10 searches)": "q=삼성",
    "a product's word (~1 in 20)": "q=보조배터리",
    "two words, any order": "q=배터리 삼성",
    "two words, status=DONE": "q=삼성 프로&status=DONE",
    "a word no job has": "q=냉장고",
}


def catalogue() -> list[list[str]]:
    """The words of every keyword of the catalogue (split once each, as the gateway splits them)."""
    keywords = [
        f"{brand} {product} {line} {n}" for brand, product, line, n in itertools.product(BRANDS, PRODUCTS, LINES, [1])
    ]
    return [job_words(keyword) for keyword in keywords]


async def seed(main: MainDatabase, count: int, batch: int = 500) -> None:
    """The jobs, in batches; a DONE search keeps 2 of its 20 offers (what `q=` reads is the index and the page's
    documents: the growth mix's full results made seeding 100,000 jobs take ~20 min on the embedded store)."""
    words = catalogue()
    now = utcnow()
    jobs = list(stored_jobs(0, count, since=now - timedelta(hours=6), until=now))
    for index, job in enumerate(jobs):
        if job["job_type"] == "SEARCH":
            job["words"] = words[index % len(words)]
        if isinstance(job.get("result"), dict) and "offers" in job["result"]:
            job["result"]["offers"] = job["result"]["offers"][:2]
    for start in range(0, count, batch):
        await main.jobs().insert_many(jobs[start : start + batch], ordered=False)
        if start % 20_000 == 0:
            print(f"  seeded {start + batch:,} of {count:,}", flush=True)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50": statistics.median(ordered), "p95": ordered[int(len(ordered) * 0.95) - 1], "max": ordered[-1]}


async def measure(url: str, count: int) -> dict[str, Any]:
    settings = Settings.from_env().with_overrides(
        mongo_url=url,
        mongo_db=f"lps_bench_words_{uuid.uuid4().hex[:8]}",
        queue_prefix="lpsbenchwords_",
        # A loaded machine must not turn a slow answer into an error: the figure is the latency.
        mongo_timeout_ms=30_000,
    )
    # Seeding: long batches on the embedded store (the gateway's own requests keep the production budget).
    seeding = create_client(settings.with_overrides(mongo_timeout_ms=120_000))
    client = create_client(settings)
    main = MainDatabase.open(client, settings.mongo_db)
    results: dict[str, Any] = {"stored_jobs": count, "figures": {}}
    try:
        await ensure_indexes(main, settings)
        started = time.perf_counter()
        await seed(MainDatabase.open(seeding, settings.mongo_db), count)
        results["seed_seconds"] = round(time.perf_counter() - started, 1)
        repository = JobRepository(main)
        async with TestClient(TestServer(create_app(settings))) as http:
            for name, query in QUERIES.items():
                await http.get(f"/v1/lps/jobs?{query}&limit=50")  # warm-up
                over_http, raw = [], []
                params = dict(part.split("=", 1) for part in query.split("&"))
                filters: dict[str, Any] = {"words": query_words(params["q"])}
                if "status" in params:
                    filters["status"] = params["status"]
                for _ in range(REQUESTS):
                    began = time.perf_counter()
                    answer = await (await http.get(f"/v1/lps/jobs?{query}&limit=50")).json()
                    over_http.append((time.perf_counter() - began) * 1000)
                    assert answer["result"] == 0, answer
                    began = time.perf_counter()
                    page = await repository.newest(filters, 51)
                    raw.append((time.perf_counter() - began) * 1000)
                results["figures"][name] = {
                    "jobs_on_page": len(answer["jobs"]),
                    "http_ms": {k: round(v, 1) for k, v in summary(over_http).items()},
                    "raw_ms": {k: round(v, 1) for k, v in summary(raw).items()},
                    "raw_page": len(page.jobs),
                }
    finally:
        await seeding.drop_database(settings.mongo_db)
        await seeding.close()
        await client.close()
    results["within_target"] = all(f["http_ms"]["p50"] <= TARGET_MS for f in results["figures"].values())
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    args = parser.parse_args()

    async def run(url: str) -> dict[str, Any]:
        return await measure(url, args.jobs)

    if url := os.environ.get("LPS_MONGO_URL"):
        results = asyncio.run(run(url))
    else:
        with embedded_mongo() as url:
            results = asyncio.run(run(url))
    print(
        f"{results['stored_jobs']:,} stored jobs (seeded in {results['seed_seconds']} s); "
        f"target p50 <= {TARGET_MS:.0f} ms"
    )
    for name, figure in results["figures"].items():
        http, raw = figure["http_ms"], figure["raw_ms"]
        print(
            f"  {name:<38} {figure['jobs_on_page']:>3} jobs  http p50 {http['p50']:>7.1f} p95 {http['p95']:>7.1f} ms"
            f"   raw p50 {raw['p50']:>7.1f} p95 {raw['p95']:>7.1f} ms"
        )
    print("within target" if results["within_target"] else "OVER TARGET")


if __name__ == "__main__":
    main()
