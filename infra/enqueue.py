"""Recording and publishing jobs: the gateway's whole write path.

Order matters for "nothing accepted is ever lost": the job document is written first, then its
message is published, then `enqueued_at` records the broker's confirm. A crash or broker outage
between the steps leaves a PENDING job without `enqueued_at`, which the reconciler re-publishes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import dramatiq
from bson import ObjectId

from infra.broker import Publisher, job_message
from infra.clock import utcnow
from infra.job_documents import new_job
from infra.jobs import JobRepository
from infra.mongo import is_unavailable
from infra.settings import Settings
from infra.text.search_words import job_words
from schemas.codes import JobType

log = logging.getLogger(__name__)


def message_for_job(settings: Settings, job: dict[str, Any]) -> dramatiq.Message:
    """A fresh message for a stored job, at the broker priority of the job's priority."""
    job_type = JobType[job["job_type"]]
    return job_message(settings, job_type, str(job["_id"]), settings.broker_priority(job_type, job.get("priority")))


class JobNotFound(LookupError):
    pass


class JobNotRetryable(Exception):
    """Only a DEAD job can be re-driven; the argument is its status."""


@dataclass(frozen=True, slots=True)
class Submission:
    """One requested product's answer, in request order."""

    product_code: str
    job_id: str
    status: str
    duplicate: bool
    #: False when the broker did not confirm the publish; None when no publish was ours to make.
    enqueued: bool | None
    #: True when the answered job searches another keyword than this product asked for (a duplicate).
    keyword_ignored: bool | None = None


class JobEnqueuer:
    def __init__(self, settings: Settings, jobs: JobRepository, publisher: Publisher) -> None:
        self._settings = settings
        self._jobs = jobs
        self._publisher = publisher

    async def submit_search(
        self,
        products: Sequence[dict[str, Any]],
        priority: str | None,
        *,
        watch_ids: Mapping[str, ObjectId] | None = None,
    ) -> list[Submission]:
        """Record one SEARCH job per distinct product_code (unless one is active) and publish the new ones.

        `watch_ids`: product_code -> the watch that started its search (stored on the job as `watch_id`).

        Round trips: one batched insert, one lookup only when some product already had an active
        job, one publish batch, one `enqueued_at` update.
        """
        settings = self._settings
        priority = priority or settings.job(JobType.SEARCH).default_priority
        broker_priority = settings.broker_priority(JobType.SEARCH, priority)
        now = utcnow()
        first_by_code: dict[str, dict[str, Any]] = {}
        for product in products:
            first_by_code.setdefault(product["product_code"], product)

        # Kiwi's analysis takes ~0.1-0.7 ms a keyword (and its load ~3 s, once): off the event loop.
        words = await asyncio.to_thread(_words_by_code, first_by_code)
        messages: dict[ObjectId, dramatiq.Message] = {}
        documents = []
        for code, product in first_by_code.items():
            job_id = ObjectId()
            message = job_message(settings, JobType.SEARCH, str(job_id), broker_priority)
            messages[job_id] = message
            documents.append(
                new_job(
                    JobType.SEARCH,
                    job_id=job_id,
                    product_code=code,
                    product=_stored_product(product),
                    priority=priority,
                    max_attempts=settings.job(JobType.SEARCH).max_attempts,
                    now=now,
                    message_id=message.message_id,
                )
            )
            if words[code]:
                documents[-1]["words"] = words[code]
            if watch_ids and code in watch_ids:
                documents[-1]["watch_id"] = watch_ids[code]

        # If this raises (MongoDB unreachable or past the request's deadline: 503), some of the jobs may have been
        # written all the same. That is safe: a client that POSTs the same products again gets those jobs back
        # (`duplicate: true`, by the one-active-search index), and the reconciler publishes them.
        inserted = await self._jobs.insert_search_jobs(documents)
        confirmed = await self._publisher.publish([messages[doc["_id"]] for doc in inserted.created])
        enqueued = {doc["_id"] for doc in inserted.created if messages[doc["_id"]].message_id in confirmed}
        # From here on the jobs are recorded and published: the answer is theirs, whatever the store does next.
        await self._note_enqueued(list(enqueued))

        created = {doc["product_code"]: doc for doc in inserted.created}
        answered: set[str] = set()
        submissions = []
        for product in products:
            code = product["product_code"]
            if code in created:
                job, duplicate = created[code], code in answered
                was_enqueued: bool | None = None if duplicate else job["_id"] in enqueued
            else:
                job, duplicate, was_enqueued = inserted.existing[code], True, None
            answered.add(code)
            ignored = duplicate and (job.get("product") or {}).get("keyword") != product["keyword"]
            submissions.append(
                Submission(code, str(job["_id"]), job["status"], duplicate, was_enqueued, ignored or None)
            )
        return submissions

    async def redrive(self, job_id: ObjectId, *, by: str | None = None) -> dict[str, Any]:
        """Put a DEAD job back to PENDING with fresh attempts (history kept) and publish it; `by`: the name of the
        API key that asked (recorded in the job's `redrive_history`).

        Raises JobNotFound, JobNotRetryable (not DEAD), or ActiveJobExists (its product has another active
        search: re-driving it would break the one-active-job rule).
        """
        current = await self._jobs.get_current(job_id)
        if current is None:
            raise JobNotFound(job_id)
        message = message_for_job(self._settings, current)
        job = await self._jobs.redrive(
            job_id,
            now=utcnow(),
            max_attempts=self._settings.job(JobType[current["job_type"]]).max_attempts,
            message_id=message.message_id,
            by=by,
        )
        if job is None:
            raise JobNotRetryable(current["status"])
        if await self._publisher.publish([message]):
            job["enqueued_at"] = utcnow()
            await self._note_enqueued([job_id], job["enqueued_at"])
        return job

    async def _note_enqueued(self, job_ids: list[ObjectId], now: datetime | None = None) -> None:
        """Record the broker's confirms; if the store cannot take it now, leave it to the reconciler.

        Failing the request here would tell the client a recorded, published job was refused (a 503 hiding a
        write that completed). Unrecorded, the jobs are re-published by the reconciler after LPS_RECONCILE_GRACE:
        a second message for a job is skipped by the worker that gets it.
        """
        try:
            await self._jobs.mark_enqueued(job_ids, now or utcnow())
        except Exception as error:
            if not is_unavailable(error):
                raise
            log.warning(
                "MongoDB unavailable (%s) after publishing %d job(s): the reconciler will publish them again",
                type(error).__name__,
                len(job_ids),
            )


def _stored_product(product: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in product.items() if key != "product_code" and value is not None}


def _words_by_code(products: Mapping[str, Mapping[str, Any]]) -> dict[str, list[str]]:
    """Each product's `words` (its keyword and model number as the matcher splits them: the listing's `q=`). Without
    the analyzer (it failed to load) the searches are recorded all the same, without words: `q=` misses them."""
    try:
        return {code: job_words(product["keyword"], product.get("model_no")) for code, product in products.items()}
    except Exception:
        log.exception("could not split %d keyword(s) into words: recorded without them", len(products))
        return {code: [] for code in products}


def outbox_job_for(search_job: dict[str, Any], settings: Settings) -> tuple[dict[str, Any], dramatiq.Message]:
    """The OUTBOX job (and its message) that delivers a DONE search's result.

    Stored unconfirmed (no `enqueued_at`), as every new job: whoever stores it publishes it and records the broker's
    confirm (`mark_enqueued`). Should that process die in between, the reconciler's unconfirmed pass publishes it
    after LPS_RECONCILE_GRACE, not the lost-message pass LPS_RECONCILE_LOST_AFTER later.
    """
    outbox_id = ObjectId()
    priority = settings.job(JobType.OUTBOX).default_priority
    message = job_message(settings, JobType.OUTBOX, str(outbox_id), settings.broker_priority(JobType.OUTBOX, priority))
    document = new_job(
        JobType.OUTBOX,
        job_id=outbox_id,
        product_code=search_job["product_code"],
        priority=priority,
        max_attempts=settings.job(JobType.OUTBOX).max_attempts,
        now=utcnow(),
        message_id=message.message_id,
        source_job_id=search_job["_id"],
    )
    return document, message
