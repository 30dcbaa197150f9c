"""The operator's side of the HTTP API: what `lps submit`, `lps jobs`, `lps stats` and `lps retry` send.

It speaks to a running gateway (LPS_GATEWAY_URL, default http://LPS_HTTP_HOST:LPS_HTTP_PORT) with the
key in LPS_API_KEY when the gateway wants one.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import aiohttp

from infra.settings import Settings

#: Jobs polled at once while waiting for a submission to end.
POLL_CONCURRENCY = 16
ENDED = ("DONE", "DEAD")
RESULT_COLUMNS = ("product_code", "lowest_price", "source", "delivery", "outcome", "status")


class GatewayError(RuntimeError):
    """The gateway answered with a result other than SUCCESS."""


def gateway_url(settings: Settings, explicit: str | None = None) -> str:

    return (
        explicit or os.environ.get("LPS_GATEWAY_URL") or f"http://{settings.http_host}:{settings.http_port}"
    ).rstrip("/")


class GatewayClient:
    def __init__(self, base_url: str, api_key: str | None = None) -> None:
        self._base_url = base_url
        self._headers = {"X-API-Key": api_key} if api_key else {}
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> GatewayClient:
        self._session = aiohttp.ClientSession(self._base_url, headers=self._headers)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._session is not None
        await self._session.close()

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        assert self._session is not None
        async with self._session.request(method, path, **kwargs) as response:
            body = await response.json(content_type=None)
        if not isinstance(body, dict) or body.get("result") != 0:
            raise GatewayError(f"{method} {path}: HTTP {response.status}: {body}")
        return body

    async def submit(self, products: Sequence[dict[str, Any]], priority: str | None) -> list[dict[str, Any]]:
        payload: dict[str, Any] = {"products": list(products)}
        if priority:
            payload["priority"] = priority
        return (await self._call("POST", "/v1/lps/search", json=payload))["jobs"]

    async def job(self, job_id: str) -> dict[str, Any]:
        return (await self._call("GET", f"/v1/lps/jobs/{job_id}"))["job"]

    async def jobs(self, **filters: str | int) -> list[dict[str, Any]]:
        params = {key: str(value) for key, value in filters.items() if value is not None}
        return (await self._call("GET", "/v1/lps/jobs", params=params))["jobs"]

    async def stats(self) -> dict[str, Any]:
        return await self._call("GET", "/v1/lps/queue/stats")

    async def retry(self, job_id: str) -> dict[str, Any]:
        return (await self._call("POST", f"/v1/lps/jobs/{job_id}/retry"))["job"]


def read_products(path: Path) -> list[dict[str, Any]]:
    """Products from a CSV (header: product_code,keyword[,model_no,target_price,sources]) or JSON file."""
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() == ".json":
        data = json.loads(text)
        return list(data["products"] if isinstance(data, dict) else data)
    products = []
    for row in csv.DictReader(io.StringIO(text)):
        product: dict[str, Any] = {"product_code": row["product_code"].strip(), "keyword": row["keyword"].strip()}
        if model_no := (row.get("model_no") or "").strip():
            product["model_no"] = model_no
        if target_price := (row.get("target_price") or "").strip():
            product["target_price"] = int(target_price.replace(",", ""))
        if sources := (row.get("sources") or "").strip():
            product["sources"] = [source.strip() for source in sources.replace(";", ",").split(",") if source.strip()]
        products.append(product)
    return products


def result_row(job: dict[str, Any]) -> dict[str, Any]:
    result = job.get("result") or {}
    lowest = result.get("lowest") or {}
    return {
        "product_code": job["product_code"],
        "lowest_price": lowest.get("price"),
        "source": lowest.get("source"),
        "delivery": lowest.get("delivery"),
        "outcome": result.get("outcome") or (job.get("last_error") or {}).get("type"),
        "status": job["status"],
    }


def format_rows(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """A plain aligned table: numbers right, text left, `-` for nothing."""

    def cell(value: Any) -> str:
        if value is None:
            return "-"
        return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)

    cells = [[cell(row.get(column)) for column in columns] for row in rows]
    widths = [max([len(column), *(len(line[index]) for line in cells)]) for index, column in enumerate(columns)]
    numeric = [
        all(isinstance(row.get(column), int | float) or row.get(column) is None for row in rows) for column in columns
    ]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if right else value.ljust(width)
            for value, width, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(list(columns)), *(line(values) for values in cells)])


def write_results(rows: Sequence[dict[str, Any]], path: Path) -> None:
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(list(rows), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=RESULT_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def _progress(done: int, total: int, stream: TextIO) -> None:
    width = 30
    filled = width * done // max(total, 1)
    stream.write(f"\r  {done}/{total} ended [{'#' * filled}{'.' * (width - filled)}]")
    stream.flush()


async def wait_for_jobs(
    client: GatewayClient, job_ids: Sequence[str], *, within: float, stream: TextIO = sys.stderr
) -> dict[str, dict[str, Any]]:
    """Poll until every job ended (DONE or DEAD) or `within` seconds passed; show a progress bar."""
    latest: dict[str, dict[str, Any]] = {}
    pending = list(dict.fromkeys(job_ids))
    limit = asyncio.Semaphore(POLL_CONCURRENCY)
    deadline = time.monotonic() + within

    async def poll(job_id: str) -> None:
        async with limit:
            latest[job_id] = await client.job(job_id)

    while pending:
        await asyncio.gather(*(poll(job_id) for job_id in pending))
        pending = [job_id for job_id in pending if latest[job_id]["status"] not in ENDED]
        _progress(len(latest) - len(pending), len(latest), stream)
        if not pending or time.monotonic() > deadline:
            break
        await asyncio.sleep(1)
    stream.write("\n")
    return latest


async def submit_and_wait(
    client: GatewayClient,
    products: Sequence[dict[str, Any]],
    *,
    batch: int = 100,
    priority: str | None = None,
    within: float = 1800,
    stream: TextIO = sys.stderr,
) -> list[dict[str, Any]]:
    """Enqueue in batches, wait for every job, return one result row per product in file order."""
    answers: list[dict[str, Any]] = []
    for start in range(0, len(products), batch):
        answers += await client.submit(products[start : start + batch], priority)
        stream.write(f"\r  {len(answers)}/{len(products)} enqueued")
        stream.flush()
    stream.write("\n")
    jobs = await wait_for_jobs(client, [answer["job_id"] for answer in answers], within=within, stream=stream)
    return [result_row(jobs[answer["job_id"]]) for answer in answers]
