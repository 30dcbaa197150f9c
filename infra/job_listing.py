"""The job listing's query planner: which index a page of `GET /v1/lps/jobs` (and every dashboard list) is served
by, which filters are read on the way, and how far one page may walk.

Apart from the job store's other reads (`infra.job_reads`, whose `JobReads.newest` runs it on a secondary when
allowed; `JobRepository` is one): what keeps a listing cheap (an index per filter, a bounded walk, cursors that are
positions in the index) is one idea of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo.asynchronous.collection import AsyncCollection

from infra.clock import utcnow
from infra.mongo import FIRST_ID
from schemas.codes import JobStatus, JobType
from schemas.offers import SourceName

#: The job listing's filters that choose its index (API name -> document field); see `listing_query`.
LISTING_INDEXED = {"status": "status", "product_code": "product_code", "source_job_id": "source_job_id"}
#: The listing's `delayed` filter: PENDING jobs whose run_after is ahead of now (true: retries waiting out their
#: backoff, deferred searches) or has come (false: due, waiting for a worker). The active set's keys in
#: `active_by_status` (active, status, job_type, run_after), partial on `active: true`, which the query states.
LISTING_DELAYED = "delayed"
#: The listing's `q=` as words (`infra.text.search_words.query_words`): every one must be among a job's `words`.
LISTING_WORDS = "words"
#: The listing's filters read on the way (no index): a page then walks at most LISTING_WALK jobs.
LISTING_ON_THE_WAY = {"job_type": "job_type", "error_type": "last_error.type"}
#: The most jobs one page of the listing walks when a filter is read on the way: a rare match costs a bounded
#: walk, and the page's cursor says where it stopped (the page may hold fewer jobs than asked, or none).
LISTING_WALK = 2000


@dataclass(frozen=True, slots=True)
class ListingPage:
    """Jobs of the listing, newest first, and, when a filter read on the way ended the walk, where it stopped."""

    jobs: list[dict[str, Any]]
    #: (created_at, _id) the next page starts below; None when the walk was not cut short.
    walked_to: tuple[datetime, ObjectId] | None


@dataclass(frozen=True, slots=True)
class ListingWindow:
    """Which jobs of the listing a page may hold: created in [`since`, `until`), after an earlier page's position."""

    since: datetime | None = None
    until: datetime | None = None
    #: (created_at, _id) of the earlier page's last job, or where its walk stopped (`ListingPage.walked_to`).
    after: tuple[datetime, ObjectId] | None = None


def listing_query(filters: dict[str, Any], *, now: datetime) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The listing's (indexed, read on the way) parts of a query, from validated filter values; None when the
    filters contradict each other, so that no job can match (a search's own `source_job_id`, or a DONE job that
    is delayed, say).

    - status: `status_created_at`; product_code, or its prefix as an anchored regex of the escaped text (the
      index bounds [prefix, next prefix) on MongoDB): `product_created_at`;
    - source_job_id: `one_outbox_per_search` (partial on job_type OUTBOX, so the query names it);
    - delayed: `active_by_status` (partial on `active: true`, so the query states it): status PENDING, the job_type
      if given (then a key, not read on the way), run_after after `now` (true) or not (false), the index's last key;
    - read on the way: job_type, error_type, and a source's outcome (`result.sources.<source>.outcome`), a source
      (searches it took part in: `result.sources.<source>` exists) or an outcome of any source, and whether the
      reconciler published a job again (`republishes`, counted by `JobRepository.take_for_republish`).
    """
    indexed = {LISTING_INDEXED[name]: value for name, value in filters.items() if name in LISTING_INDEXED}
    on_the_way = {LISTING_ON_THE_WAY[name]: value for name, value in filters.items() if name in LISTING_ON_THE_WAY}
    prefix = filters.get("product_code_prefix")
    if prefix is not None and "product_code" in filters:
        if not filters["product_code"].startswith(prefix):
            return None
    elif prefix is not None:
        indexed["product_code"] = {"$regex": "^" + re.escape(prefix)}
    if "source_job_id" in filters:
        # Only a delivery has a source_job_id.
        if filters.get("job_type", JobType.OUTBOX.name) != JobType.OUTBOX.name:
            return None
        indexed["job_type"] = on_the_way.pop("job_type", JobType.OUTBOX.name)
    delayed = filters.get(LISTING_DELAYED)
    if delayed is not None:
        # Only a PENDING job waits for its run_after.
        if filters.get("status", JobStatus.PENDING.name) != JobStatus.PENDING.name:
            return None
        indexed |= {"active": True, "status": JobStatus.PENDING.name}
        if "job_type" in on_the_way:
            indexed["job_type"] = on_the_way.pop("job_type")
        indexed["run_after"] = {"$gt": now} if delayed else {"$lte": now}
    words = filters.get(LISTING_WORDS)
    if words is not None:
        # `words_created_at`: the longest word (likely the rarest) by the index, the others read on the way.
        # With a product code (or its prefix), that index serves and the words are read on the way; a status is
        # then read on the way instead, so that one index bounds the walk.
        first, *rest = sorted(words, key=len, reverse=True)
        if "product_code" in indexed or "source_job_id" in filters or delayed is not None:
            on_the_way["words"] = {"$all": words}
        else:
            if "status" in indexed:
                on_the_way["status"] = indexed.pop("status")
            indexed["words"] = first
            if rest:
                on_the_way["$and"] = [{"words": word} for word in rest]
    republished = filters.get("republished")
    if republished is not None:
        on_the_way["republishes"] = {"$gte": 1} if republished else {"$exists": False}
    source, outcome = filters.get("source"), filters.get("source_outcome")
    if source is not None:
        on_the_way[f"result.sources.{source}" + (".outcome" if outcome else "")] = outcome or {"$exists": True}
    elif outcome is not None:
        on_the_way["$or"] = [{f"result.sources.{name}.outcome": outcome} for name in SourceName]
    return indexed, on_the_way


def _created(bounds: dict[str, datetime]) -> dict[str, Any]:
    return {"created_at": bounds} if bounds else {}


async def newest(
    collection: AsyncCollection, filters: dict[str, Any], limit: int, window: ListingWindow
) -> ListingPage:
    """One page of the listing, read from `collection` (the jobs): newest first by (created_at, _id), filtered by
    `filters` (validated values, named as the API names them: `listing_query`), within `window`.

    Served by `created_at_desc`, `status_created_at` or `product_created_at`, which end in `_id`: the order
    comes from the index, and a page reads its own jobs plus at most the ties of its cursor. A filter read on
    the way bounds the page to the LISTING_WALK next jobs in index order: the far end is found first (index
    keys only), and the page says where it stopped when it found fewer than `limit` jobs before it.

    `delayed` is served by `active_by_status` instead: its keys select the jobs (those of the active set whose
    run_after is on that side of now), which are then sorted; a page reads the delayed (or due) jobs of its type
    and window, bounded by the work in hand, not by history.
    """
    query_parts = listing_query(filters, now=utcnow())
    if query_parts is None:
        return ListingPage([], None)
    indexed, on_the_way = query_parts
    created: dict[str, datetime] = {}
    position: dict[str, Any] = {}
    if window.since is not None:
        created["$gte"] = window.since
    if window.until is not None:
        created["$lt"] = window.until
    if window.after is not None:
        created_at, last_id = window.after
        created["$lte"] = created_at
        # One range in index order; only the cursor's ties that came before it are skipped.
        position["$nor"] = [{"created_at": created_at, "_id": {"$gte": last_id}}]
    order = [("created_at", -1), ("_id", -1)]
    walked_to = None
    if on_the_way:
        # Not paging by skip: the page still starts at its cursor; this only finds how far its walk may go.
        keys = collection.find(position | _created(created) | indexed, {"created_at": 1})
        far = await keys.sort(order).skip(LISTING_WALK - 1).limit(1).to_list()
        if far:
            edge = far[0]["created_at"]
            created["$gte"] = max(created.get("$gte", edge), edge)
            # Every tie of the far end is read too: the next page starts below its created_at.
            walked_to = (edge, FIRST_ID)  # the next page of the newest-first walk starts below t
    query = on_the_way | position | _created(created) | indexed
    jobs = await collection.find(query).sort(order).limit(limit).to_list()
    return ListingPage(jobs, walked_to)
