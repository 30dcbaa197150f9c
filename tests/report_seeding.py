"""A report database seeded through the code paths that write it: jobs through JobRepository's transitions and
price_history through PriceHistory, as the workers write them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo import AsyncMongoClient

from actors.search import summarize
from infra.job_documents import new_job
from infra.jobs import JobRepository
from infra.mongo import PRICE_HISTORY, MainDatabase, create_client, price_history_indexes
from infra.price_history import PriceHistory
from infra.settings import Settings
from schemas.codes import JobType
from schemas.offers import Offer, SourceOutcome, SourceResult

ANSWERS = {SourceOutcome.FOUND, SourceOutcome.NO_RESULTS}


def march(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2025, 3, day, hour, minute, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Source:
    """How one source of a seeded search went: its outcome, duration and offers (price, refusal reason)."""

    outcome: SourceOutcome
    ms: int
    offers: list[tuple[int, str | None]] = field(default_factory=list)


def found(ms: int, *prices: int, rejected: tuple[int, ...] = ()) -> Source:
    offers = [(price, None) for price in prices] + [(price, "accessory") for price in rejected]
    return Source(SourceOutcome.FOUND, ms, offers)


class Seeder:
    """Writes jobs through JobRepository's transitions and price_history through PriceHistory, as workers do."""

    def __init__(self, db: MainDatabase) -> None:
        self.jobs = JobRepository(db)
        self.history = PriceHistory(db.write)

    async def pending(self, job_type: JobType, code: str, at: datetime, source_job_id: ObjectId | None = None) -> dict:
        document = new_job(
            job_type,
            job_id=ObjectId(),
            product_code=code,
            priority="NORMAL",
            max_attempts=5,
            now=at,
            message_id=f"message-{code}",
            product={"keyword": code} if job_type is JobType.SEARCH else None,
            source_job_id=source_job_id,
        )
        if job_type is JobType.SEARCH:
            await self.jobs.insert_search_jobs([document])
        else:
            assert await self.jobs.insert_follow_up(document)
        return document

    async def running(self, job_type: JobType, code: str, at: datetime, source_job_id: ObjectId | None = None) -> dict:
        started = at - timedelta(seconds=5)
        document = await self.pending(job_type, code, started - timedelta(seconds=5), source_job_id)
        job = await self.jobs.claim(document["_id"], worker="w", now=started, lease_until=started + timedelta(hours=1))
        assert job is not None
        return job

    async def search(self, code: str, at: datetime, **sources: Source) -> dict:
        """A DONE search finished at `at`, shaped like actors.search.work_search, with its price history."""
        job = await self.running(JobType.SEARCH, code, at)
        answered: dict[str, SourceResult] = {}
        per_source: dict[str, dict[str, Any]] = {}
        for name, source in sources.items():
            offers = [
                Offer(name, f"{code} offer", price, f"https://{name}.test/{price}", rejected=reason)
                for price, reason in source.offers
            ]
            summary: dict[str, Any] = {"outcome": str(source.outcome), "count": len(offers), "ms": source.ms}
            if source.outcome in ANSWERS:
                answered[name] = SourceResult(source.outcome, offers)
            else:
                summary["error"] = f"{source.outcome.lower()} on purpose"
            per_source[name] = summary
        result = summarize(job["product"], answered, {}, at)
        result["sources"] = per_source
        assert await self.jobs.complete(job, now=at, output={"result": result})
        await self.history.record(job | {"result": result})
        return job

    async def dead(self, job_type: JobType, code: str, at: datetime, error_type: str, **links: Any) -> dict:
        job = await self.running(job_type, code, at, **links)
        error = {"type": error_type, "message": f"{error_type} on purpose", "at": at}
        assert await self.jobs.kill(job, now=at, error=error)
        return job

    async def delivered(self, search: dict, at: datetime, ms: int) -> None:
        job = await self.running(JobType.OUTBOX, search["product_code"], at, search["_id"])
        delivery = {"status_code": 200, "ms": ms, "delivered_at": at}
        assert await self.jobs.complete(job, now=at, output={"delivery": delivery})


async def open_database(settings: Settings) -> tuple[AsyncMongoClient, MainDatabase]:
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await database.write[PRICE_HISTORY].create_indexes(price_history_indexes())
    return client, database


@pytest.fixture
async def db(settings: Settings) -> AsyncIterator[MainDatabase]:
    """An empty database of this test's own."""
    client, database = await open_database(settings)
    try:
        yield database
    finally:
        await client.close()
