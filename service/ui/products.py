"""The product page (/ui/products/{product_code}): its searches over time, a chart of its prices, and its watch.

The searches are read like every job list (`JobOperations.page`: newest first, cursor pages, a bad code refused with
result 101 before any query); the prices are the product's newest `price_history` entries (`product_searched_at`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aiohttp import web
from multidict import MultiDict

from infra.mongo import deadline
from infra.price_history import PriceHistory
from schemas.codes import ErrorType, JobType
from service.errors import ApiError
from service.keys import DATABASE, JOB_OPERATIONS, SETTINGS, WATCHES, caller_of
from service.ui.charts import price_chart
from service.ui.reads import watch_of_product

#: How many of the product's newest price_history entries (one per source of a search) the chart shows.
PRICE_ENTRIES = 200


def price_series(entries: list[dict[str, Any]]) -> dict[str, list[tuple[datetime, int]]]:
    """Each source's lowest price per search, from price_history entries (a source with no matching offer in a
    search has no point for it)."""
    series: dict[str, list[tuple[datetime, int]]] = {}
    for entry in entries:
        if entry.get("lowest_price") is not None and entry.get("searched_at") is not None:
            series.setdefault(entry["source"], []).append((entry["searched_at"], entry["lowest_price"]))
    return series


async def product(request: web.Request) -> tuple[str, dict[str, Any]]:
    code = request.match_info["product_code"]
    parameters = MultiDict(request.query)
    parameters["product_code"], parameters["job_type"] = code, JobType.SEARCH.name
    searches, next_cursor = await request.config_dict[JOB_OPERATIONS].page(parameters, caller_of(request))
    first_page = "cursor" not in request.query
    entries: list[dict[str, Any]] = []
    watch = None
    if first_page:  # the chart shows the newest prices, and the watch: on the first page only
        with deadline(request.config_dict[SETTINGS]):
            entries = await PriceHistory(request.config_dict[DATABASE].read).latest(code, PRICE_ENTRIES)
            watch = await watch_of_product(request.config_dict[WATCHES], code)
    if first_page and not searches and not entries and watch is None:
        raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, f"no search of product {code}")
    target = next(
        (job["product"]["target_price"] for job in searches if (job.get("product") or {}).get("target_price")), None
    )
    label = f"Lowest price per source: {code}"
    chart = price_chart(price_series(entries), target=target, label=label) if first_page else None
    context = {
        "product_code": code,
        "searches": searches,
        "next_cursor": next_cursor,
        "chart": chart,
        "points": sum(1 for entry in entries if entry.get("lowest_price") is not None),
        "entries": len(entries),
        "price_entries": PRICE_ENTRIES,
        "target": target,
        "watch": watch,
        "first_page": first_page,
        "page": "jobs",
    }
    return "product.html", context
