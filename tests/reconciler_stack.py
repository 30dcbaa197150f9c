"""The reconciler over a test's own store and RabbitMQ: jobs crafted in the store, and what was queued."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId

from infra.broker import Publisher, create_broker
from infra.clock import utcnow
from infra.job_documents import ended_fields, new_job
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.reconciler import Reconciler
from infra.reconciler_log import ReconcilerLog
from infra.settings import Settings
from schemas.codes import JobType
from tests.rabbit import drain


@dataclass
class Stack:
    settings: Settings
    jobs: JobRepository
    database: MainDatabase
    publisher: Publisher

    def reconciler(self) -> Reconciler:
        return Reconciler(self.settings, self.jobs, self.publisher, ReconcilerLog(self.database.write))

    async def insert(self, job_type: JobType = JobType.SEARCH, **fields: Any) -> dict[str, Any]:
        job_id = ObjectId()
        document = (
            new_job(
                job_type,
                job_id=job_id,
                product_code=fields.pop("product_code", f"P-{job_id}"),
                product={"keyword": "k", "sources": ["static"]} if job_type is JobType.SEARCH else None,
                priority="NORMAL",
                max_attempts=fields.pop("max_attempts", 3),
                now=fields.pop("now", utcnow() - timedelta(minutes=5)),
                message_id="m",
            )
            | fields
        )
        if document["status"] in ("DONE", "DEAD"):
            del document["active"]  # an ended job no longer holds its product's slot
        if "finished_at" in document:
            document |= ended_fields(document["finished_at"])
        await self.database.jobs().insert_one(document)
        return document

    async def queued(self, job_type: JobType = JobType.SEARCH) -> list[str]:
        messages = await asyncio.to_thread(drain, self.settings.amqp_url, self.settings.job(job_type).queue)
        return [queued.message.args[0] for queued in messages]


@pytest.fixture
async def stack(settings: Settings) -> AsyncIterator[Stack]:
    settings = settings.with_overrides(reconcile_grace=0.0, reconcile_lost_after=60.0)
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await ensure_indexes(database, settings)
    publisher = Publisher(create_broker(settings, middleware=[]))
    await publisher.start(settings.job(job_type).queue for job_type in JobType)
    yield Stack(settings, JobRepository(database), database, publisher)
    await publisher.close()
    await client.close()
