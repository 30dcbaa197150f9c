"""OUTBOX jobs: deliver a finished search's result to the back office's API, signed and idempotent."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiohttp
import dramatiq

from actors import metrics
from actors.errors import DeferredJobError, PermanentJobError, RetryableJobError
from actors.runtime import WorkerRuntime
from infra.clock import utcnow
from infra.enqueue import outbox_job_for
from infra.notify import decide_delivery, seen_of
from schemas.codes import JobErrorType
from schemas.delivery import delivery_body
from schemas.signature import SIGNATURE_HEADER, sign
from schemas.watches import Notify

#: Statuses worth another try besides 5xx: the receiver was busy or slow.
RETRYABLE_STATUSES = {408, 429}


def parse_retry_after(value: str | None) -> float | None:
    try:
        return max(float(value), 0.0) if value else None
    except ValueError:
        return None  # an HTTP-date: fall back to our own backoff


#: How often a judgement is made again when another delivery of the same watch recorded its own first.
_JUDGING_ROUNDS = 3
#: Seconds a watch's result waits, deferred, while the result judged before it is still being delivered.
_AFTER_EARLIER_DELIVERY = 1.0


@dataclass(frozen=True, slots=True)
class Judged:
    """The outbox's verdict on a watch's result."""

    #: The skipped delivery's record (`{status: skipped, reason, at}`); None: deliver it.
    skipped: dict[str, Any] | None
    #: What becomes the watch's `last_delivered` once the receiver answered 2xx.
    seen: dict[str, Any] | None = None


def _skipped(reason: str, now: datetime) -> Judged:
    return Judged({"status": "skipped", "reason": reason, "at": now})


async def judge_watch_result(search: dict[str, Any], runtime: WorkerRuntime) -> Judged:
    """Judge a watch's result (infra/notify.py) against the last result delivered and record the verdict as the
    watch's `last_seen`. A retried delivery is judged again: against what was delivered meanwhile, if anything."""
    watches = runtime.watches
    for _ in range(_JUDGING_ROUNDS):
        now = utcnow()
        watch = await watches.get(search["watch_id"])
        if watch is None:
            metrics.watch_result_judged(False, "watch_removed")
            return _skipped("watch_removed", now)
        last_seen = watch.get("last_seen")
        if await _earlier_delivery_in_flight(search, watch, runtime):
            reason = "the watch's previous result is still being delivered: this one is judged after it"
            raise DeferredJobError(reason, retry_after=_AFTER_EARLIER_DELIVERY, defer={"sources": [], "reason": reason})
        current = seen_of(search, (watch.get("product") or {}).get("target_price"))
        verdict = decide_delivery(
            Notify(watch["notify"]),
            current=current,
            last_seen=last_seen,
            last_delivered=watch.get("last_delivered"),
            last_above_at=watch.get("last_above_at"),
        )
        seen = current | {"deliver": verdict.deliver, "reason": verdict.reason, "at": now}
        if verdict.reason == "superseded":
            # Not recorded as the last seen: the newer result judged before it stays what the next one is judged by.
            await watches.count_superseded(watch["_id"])
            metrics.watch_result_judged(False, verdict.reason)
            return _skipped(verdict.reason, now)
        if await watches.record_judged(watch, seen=seen, now=now):
            metrics.watch_result_judged(verdict.deliver, verdict.reason)
            return Judged(None, seen) if verdict.deliver else _skipped(verdict.reason, now)
    raise RetryableJobError("the watch's last result kept changing while this one was judged")


async def _earlier_delivery_in_flight(search: dict[str, Any], watch: dict[str, Any], runtime: WorkerRuntime) -> bool:
    """Whether another result of the watch was judged for delivery and its delivery has not ended. Judged now, this
    one would be compared with a result the receiver may not take yet: the same price delivered twice when both go
    out, or a change never delivered when that one fails. So it waits, deferred (no attempt spent), until that
    delivery ended, delivered or not. One lookup, and only while a judged delivery is not recorded delivered."""
    seen = watch.get("last_seen") or {}
    delivered = watch.get("last_delivered") or {}
    if not seen.get("deliver") or seen.get("job_id") in (delivered.get("job_id"), search["_id"]):
        return False
    return await runtime.jobs.delivery_in_flight(seen["job_id"])


async def work_outbox(job: dict[str, Any], runtime: WorkerRuntime) -> dict[str, Any]:
    settings = runtime.settings
    if not settings.outbox_url:
        raise PermanentJobError("LPS_OUTBOX_URL is not configured", error_type=JobErrorType.CONFIG)
    source = await runtime.jobs.get_current(job["source_job_id"])
    if source is None:
        raise PermanentJobError(
            "the search job of this delivery no longer exists", error_type=JobErrorType.SOURCE_MISSING
        )
    judged = await judge_watch_result(source, runtime) if "watch_id" in source else None
    if judged is not None and judged.skipped is not None:
        return {"delivery": judged.skipped}
    body = delivery_body(source)  # the contract: schemas/delivery.py
    headers = {
        "Content-Type": "application/json",
        "Idempotency-Key": str(job["_id"]),
        SIGNATURE_HEADER: sign(body, settings.outbox_secret),
    }
    started = time.perf_counter()
    try:
        async with runtime.http.post(
            settings.outbox_url,
            data=body,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=settings.outbox_time_limit),
        ) as response:
            await response.read()
            status, retry_after = response.status, response.headers.get("Retry-After")
    except (aiohttp.ClientError, TimeoutError) as error:
        metrics.delivery_finished(None, time.perf_counter() - started)
        raise RetryableJobError(
            f"delivery failed: {type(error).__name__}: {error}", error_type=JobErrorType.DELIVERY_UNREACHABLE
        ) from error
    seconds = time.perf_counter() - started
    metrics.delivery_finished(status, seconds)
    ms = int(seconds * 1000)
    if 200 <= status < 300:
        delivered_at = utcnow()
        if judged is not None and judged.seen is not None:
            # Only now: what the next result is judged against is what the receiver took.
            await runtime.watches.record_delivered(source["watch_id"], judged.seen, delivered_at)
        return {"delivery": {"status": "delivered", "status_code": status, "ms": ms, "delivered_at": delivered_at}}
    if status >= 500 or status in RETRYABLE_STATUSES:
        raise RetryableJobError(
            f"receiver answered {status}",
            error_type=JobErrorType.DELIVERY_FAILED,
            retry_after=parse_retry_after(retry_after),
        )
    raise PermanentJobError(f"receiver refused the delivery with {status}", error_type=JobErrorType.DELIVERY_REJECTED)


async def spawn_outbox(job: dict[str, Any], runtime: WorkerRuntime) -> list[dramatiq.Message]:
    """One OUTBOX job per DONE search (a unique index keeps it one), when delivery is configured."""
    if not runtime.settings.outbox_url:
        return []
    document, message = outbox_job_for(job, runtime.settings)
    return [message] if await runtime.jobs.insert_follow_up(document) else []
