"""Named reports: MongoDB aggregation pipelines kept as data, run by `lps report` and shown in mongosh syntax.

Pipelines are plain lists of dicts built from a report's parameters, so the tests run exactly what an
operator runs, and `docs/reporting.md` shows the same pipelines rendered for mongosh (`mongosh_query`).
Everything works on MongoDB 7.0 and on the embedded dev store: percentiles are computed by sorting the
pushed values and picking the nearest rank, not with `$percentile` (its only 7.0 method is approximate).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from infra.mongo import (
    JOBS,
    JOBS_BY_STATUS_TYPE_FINISHED,
    PRICE_HISTORY,
    PRICE_HISTORY_BY_PRODUCT,
    PRICE_HISTORY_BY_SEARCHED_AT,
)
from schemas.codes import ACTIVE_STATUSES, ENDED_STATUSES, JobStatus, JobType, status_names

Pipeline = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Expression:
    """A placeholder in a pipeline rendered as this JavaScript source in mongosh; never sent to a server."""

    source: str


@dataclass(frozen=True, slots=True)
class ReportParams:
    #: Only documents from this moment on (`--hours` before now).
    since: datetime | Expression
    product_code: str | Expression | None = None


@dataclass(frozen=True, slots=True)
class Report:
    name: str
    #: The question the report answers (listed by `lps report` for an unknown name, and in the docs).
    answers: str
    collection: str
    #: The index of `collection` that serves the first `$match` (the names are infra.mongo's).
    index: str
    #: The columns of every row, in print order.
    columns: tuple[str, ...]
    default_hours: int
    build: Callable[[ReportParams], Pipeline]
    takes_product: bool = False
    #: The index that serves the report instead when it is asked about one product.
    product_index: str | None = None

    def pipeline(self, params: ReportParams) -> Pipeline:
        return self.build(params)

    def served_by(self) -> str:
        served = f"{self.collection}.{self.index}"
        return f"{served} (with --product: {self.product_index})" if self.product_index else served


# Expressions shared by the pipelines.


def _day(field: str) -> dict[str, Any]:
    """The UTC calendar day of a date, as `YYYY-MM-DD` (sorts and prints as it reads)."""
    return {"$dateToString": {"date": field, "format": "%Y-%m-%d"}}


def _hour(field: str) -> dict[str, Any]:
    return {"$dateToString": {"date": field, "format": "%Y-%m-%dT%H:00Z"}}


def _sorted_numbers(array: str) -> dict[str, Any]:
    """The array without nulls, ascending. Values are pushed through $ifNull because a missing field is
    skipped by MongoDB's $push but pushed as null by the embedded store: this form is the same on both."""
    return {"$sortArray": {"input": {"$filter": {"input": array, "cond": {"$ne": ["$$this", None]}}}, "sortBy": 1}}


def _nearest_rank(sorted_array: str, percent: int) -> dict[str, Any]:
    """The `percent`-th percentile of an ascending array by nearest rank: element ceil(p·n/100) - 1.

    Integer percent, so p·n is exact and `$ceil` never rounds a whole rank up; null for an empty array."""
    rank = {"$ceil": {"$divide": [{"$multiply": [percent, {"$size": sorted_array}]}, 100]}}
    element = {"$arrayElemAt": [sorted_array, {"$toInt": {"$subtract": [rank, 1]}}]}
    return {"$ifNull": [element, None]}


def _percentiles(sorted_array: str, percents: Sequence[int]) -> dict[str, Any]:
    return {f"p{percent}_ms": _nearest_rank(sorted_array, percent) for percent in percents}


# The reports.


def lowest_price_trend(params: ReportParams) -> Pipeline:
    match: dict[str, Any] = {"searched_at": {"$gte": params.since}, "lowest_price": {"$exists": True}}
    if params.product_code is not None:
        match["product_code"] = params.product_code
    return [
        {"$match": match},
        {
            "$group": {
                "_id": {"product_code": "$product_code", "day": _day("$searched_at")},
                "lowest_price": {"$min": "$lowest_price"},
                "observations": {"$sum": 1},
            }
        },
        {
            "$project": {
                "_id": 0,
                "product_code": "$_id.product_code",
                "day": "$_id.day",
                "lowest_price": 1,
                "observations": 1,
            }
        },
        {"$sort": {"product_code": 1, "day": 1}},
    ]


def dead_by_error(params: ReportParams) -> Pipeline:
    return [
        {
            "$match": {
                "status": JobStatus.DEAD.name,
                # Every type named (not left open) so the index's bounds stay tight on all three fields.
                "job_type": {"$in": [job_type.name for job_type in JobType]},
                "finished_at": {"$gte": params.since},
            }
        },
        {
            "$group": {
                "_id": {"job_type": "$job_type", "error_type": {"$ifNull": ["$last_error.type", "UNKNOWN"]}},
                "jobs": {"$sum": 1},
                "last_at": {"$max": "$finished_at"},
            }
        },
        {
            "$project": {
                "_id": 0,
                "job_type": "$_id.job_type",
                "error_type": "$_id.error_type",
                "jobs": 1,
                "last_at": 1,
            }
        },
        {"$sort": {"jobs": -1, "job_type": 1, "error_type": 1}},
    ]


def search_latency(params: ReportParams) -> Pipeline:
    return [
        {
            "$match": {
                "status": JobStatus.DONE.name,
                "job_type": JobType.SEARCH.name,
                "finished_at": {"$gte": params.since},
            }
        },
        # result.sources is {name: {outcome, count, ms}}: one row per source of every search.
        {"$project": {"_id": 0, "source": {"$objectToArray": "$result.sources"}}},
        {"$unwind": "$source"},
        {
            "$group": {
                "_id": "$source.k",
                "searches": {"$sum": 1},
                "ms": {"$push": {"$ifNull": ["$source.v.ms", None]}},
            }
        },
        {"$project": {"_id": 0, "source": "$_id", "searches": 1, "ms": _sorted_numbers("$ms")}},
        {"$project": {"source": 1, "searches": 1, **_percentiles("$ms", (50, 90, 99))}},
        {"$sort": {"source": 1}},
    ]


def blocked_rate(params: ReportParams) -> Pipeline:
    return [
        {"$match": {"searched_at": {"$gte": params.since}}},
        {
            "$group": {
                "_id": {"hour": _hour("$searched_at"), "source": "$source"},
                "searches": {"$sum": 1},
                "blocked": {"$sum": {"$cond": [{"$eq": ["$outcome", "BLOCKED"]}, 1, 0]}},
            }
        },
        {
            "$project": {
                "_id": 0,
                "hour": "$_id.hour",
                "source": "$_id.source",
                "searches": 1,
                "blocked": 1,
                "blocked_share": {"$round": [{"$divide": ["$blocked", "$searches"]}, 3]},
            }
        },
        {"$sort": {"hour": 1, "source": 1}},
    ]


def outbox_latency(params: ReportParams) -> Pipeline:
    finished = status_names(ENDED_STATUSES)
    open_ = status_names(ACTIVE_STATUSES)
    return [
        {
            "$match": {
                # Finished deliveries of the window, and the whole backlog still open now. job_type in each
                # branch, so each one is an index scan on (status, job_type[, finished_at]) of its own.
                "$or": [
                    {
                        "status": {"$in": finished},
                        "job_type": JobType.OUTBOX.name,
                        "finished_at": {"$gte": params.since},
                    },
                    {"status": {"$in": open_}, "job_type": JobType.OUTBOX.name},
                ],
            }
        },
        {
            "$group": {
                "_id": "$status",
                "jobs": {"$sum": 1},
                "ms": {"$push": {"$ifNull": ["$delivery.ms", None]}},
            }
        },
        {"$project": {"_id": 0, "status": "$_id", "jobs": 1, "ms": _sorted_numbers("$ms")}},
        {"$project": {"status": 1, "jobs": 1, **_percentiles("$ms", (50, 99))}},
        {"$sort": {"status": 1}},
    ]


REPORTS: dict[str, Report] = {
    report.name: report
    for report in (
        Report(
            name="lowest-price-trend",
            answers="the lowest matching price of each product per UTC day, over every source",
            collection=PRICE_HISTORY,
            index=PRICE_HISTORY_BY_SEARCHED_AT,
            columns=("product_code", "day", "lowest_price", "observations"),
            default_hours=30 * 24,
            build=lowest_price_trend,
            takes_product=True,
            product_index=PRICE_HISTORY_BY_PRODUCT,
        ),
        Report(
            name="dead-by-error",
            answers="jobs that went DEAD, by job type and last_error.type, newest failure of each",
            collection=JOBS,
            index=JOBS_BY_STATUS_TYPE_FINISHED,
            columns=("job_type", "error_type", "jobs", "last_at"),
            default_hours=24,
            build=dead_by_error,
        ),
        Report(
            name="search-latency",
            answers="how long each source took per search (p50/p90/p99 ms) in DONE SEARCH jobs",
            collection=JOBS,
            index=JOBS_BY_STATUS_TYPE_FINISHED,
            columns=("source", "searches", "p50_ms", "p90_ms", "p99_ms"),
            default_hours=24,
            build=search_latency,
        ),
        Report(
            name="blocked-rate",
            answers="per UTC hour and source, the share of recorded searches the site BLOCKED",
            collection=PRICE_HISTORY,
            index=PRICE_HISTORY_BY_SEARCHED_AT,
            columns=("hour", "source", "searches", "blocked", "blocked_share"),
            default_hours=24,
            build=blocked_rate,
        ),
        Report(
            name="outbox-latency",
            answers="deliveries per status (finished in the window, or open now) and p50/p99 ms of DONE ones",
            collection=JOBS,
            index=JOBS_BY_STATUS_TYPE_FINISHED,
            columns=("status", "jobs", "p50_ms", "p99_ms"),
            default_hours=24,
            build=outbox_latency,
        ),
    )
}


def report_params(
    report: Report, *, hours: float | None = None, product_code: str | None = None, now: datetime | None = None
) -> ReportParams:
    if product_code is not None and not report.takes_product:
        raise ValueError(f"report {report.name} takes no product filter")
    if hours is not None and hours <= 0:
        raise ValueError(f"the window must be some hours long, not {hours:g}")
    now = now or datetime.now(UTC)
    window = timedelta(hours=report.default_hours if hours is None else hours)
    return ReportParams(since=now - window, product_code=product_code)


async def run_report(db: AsyncDatabase, report: Report, params: ReportParams) -> list[dict[str, Any]]:
    """The report's rows. Pass a database whose reads may go to secondaries: reports tolerate staleness."""
    cursor = await db[report.collection].aggregate(report.pipeline(params))
    return await cursor.to_list()


# Output.


# The same pipelines in mongosh syntax (docs/reporting.md).

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_WIDTH = 100


def to_mongosh(value: Any, indent: int = 0) -> str:
    """A pipeline value as mongosh (JavaScript) source, one level per line once it no longer fits."""
    flat = _flat(value)
    if indent + len(flat) <= _WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, list):
        items = [inner + to_mongosh(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    items = [f"{inner}{_key(key)}: {to_mongosh(item, indent + 1)}" for key, item in value.items()]
    return "{\n" + ",\n".join(items) + f"\n{pad}}}"


def _flat(value: Any) -> str:
    if isinstance(value, Expression):
        return value.source
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(key)}: {_flat(item)}" for key, item in value.items()) + " }" if value else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flat(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"no mongosh form for {type(value).__name__}")


def _key(key: str) -> str:
    return key if _IDENTIFIER.match(key) else json.dumps(key)


def mongosh_query(report: Report) -> str:
    """The report as a ready-to-run mongosh snippet over the report's default window."""
    hours = report.default_hours
    # Inline, not a `const`: snippets pasted one after another into one mongosh session must not clash.
    since = Expression(f"new Date(Date.now() - {hours} * 3600 * 1000)")
    pipeline = report.pipeline(ReportParams(since=since))
    return (
        f"// {report.name}: {report.answers}\n"
        f"// window: the last {hours} hours (--hours); served by {report.served_by()}\n"
        f"db.getCollection({json.dumps(report.collection)}).aggregate({to_mongosh(pipeline)});"
    )
