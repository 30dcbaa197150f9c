"""The operator's side of the HTTP API: what `lps submit`, `lps jobs`, `lps stats` and `lps retry` send.

It speaks to a running gateway (LPS_GATEWAY_URL, default http://LPS_HTTP_HOST:LPS_HTTP_PORT) with the
key in LPS_API_KEY when the gateway wants one. Every failure it reports is a `CliError`: one line, and the
exit status it calls for.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

import aiohttp

from infra.display import format_table
from infra.settings import Settings
from infra.waiting import waiting
from schemas.search_request import MAX_PRODUCTS_PER_REQUEST, ProductSchema
from schemas.codes import JobStatus, has_ended

#: Jobs polled at once while waiting for a submission to end.
POLL_CONCURRENCY = 16
#: The table `lps submit` (and `lps dev --demo`) prints: one line per product, status last.
RESULT_COLUMNS = (
    "product_code", "lowest_price", "source", "shipping", "outcome", "complete", "error_type", "delivery_status",
    "status",
)  # fmt: skip
#: The results file (`lps submit --out`, CSV or JSON): everything the table has, and the offer and error.
FILE_COLUMNS = (
    "product_code", "job_id", "status", "outcome", "complete", "lowest_price", "source", "title", "url", "shipping",
    "delivery_status", "error_type", "error_message",
)  # fmt: skip
#: The columns a products CSV may have.
CSV_COLUMNS = ("product_code", "keyword", "model_no", "target_price", "sources")
#: Jobs per listing page when the CLI walks a listing.
PAGE_SIZE = 500
#: How long one HTTP call may take before the CLI gives up on the gateway.
CALL_TIMEOUT = aiohttp.ClientTimeout(total=120, sock_connect=10)

#: How much earlier than its search's end a delivery job may say it was created (clocks of two hosts).
DELIVERY_CLOCK_SLACK = timedelta(minutes=10)

#: Calls made of one request the gateway rate-limits (429), and the longest wait between them, seconds.
RATE_LIMITED_TRIES = 5
MAX_RETRY_AFTER = 30.0

#: Exit statuses of the client commands.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TIMED_OUT = 0, 1, 2, 3


class CliError(Exception):
    """A failure the CLI reports as one line on stderr, exiting with `exit_code`."""

    exit_code = EXIT_FAILED


class UsageError(CliError):
    """The command was given something it cannot use (a missing file, a CSV without product_code, …)."""

    exit_code = EXIT_USAGE


class GatewayError(CliError):
    """The gateway answered with a result other than SUCCESS."""

    def __init__(self, method: str, path: str, status: int, body: Mapping[str, Any]) -> None:
        self.status = status
        #: Seconds the gateway asked to wait (429's Retry-After).
        self.retry_after: float | None = None
        self.result = body.get("result")
        self.message = str(body.get("message") or "")
        self.errors = body.get("errors")
        detail = "; ".join(flatten_errors(self.errors)) if self.errors else ""
        super().__init__(
            f"{method} {path}: HTTP {status}, result {self.result}: {self.message or 'no message'}"
            + (f" ({detail})" if detail else "")
        )


def flatten_errors(errors: Any, prefix: str = "") -> list[str]:
    """Marshmallow's nested error messages as `field.sub: message` lines."""
    if isinstance(errors, Mapping):
        return [line for key, value in errors.items() for line in flatten_errors(value, f"{prefix}{key}.")]
    if isinstance(errors, list | tuple) and all(isinstance(item, str) for item in errors):
        # One field's messages are separate sentences: "Length must be between 1 and 200; must not be blank".
        joined = "; ".join(message.strip().rstrip(".") for message in errors)
        return [f"{prefix.rstrip('.')}: {joined}" if prefix else joined]
    if isinstance(errors, list | tuple):
        return [line for index, item in enumerate(errors) for line in flatten_errors(item, f"{prefix}{index}.")]
    return [f"{prefix.rstrip('.')}: {errors}" if prefix else str(errors)]


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
        try:
            self._session = aiohttp.ClientSession(self._base_url, headers=self._headers, timeout=CALL_TIMEOUT)
        except ValueError as bad:
            raise UsageError(f"not a gateway URL: {self._base_url} ({bad})") from None
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._session is not None
        await self._session.close()

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """One API call; a rate-limited one (429) is sent again when `Retry-After` says, a few times."""
        for _ in range(RATE_LIMITED_TRIES - 1):
            try:
                return await self._call_once(method, path, **kwargs)
            except GatewayError as refused:
                if refused.status != 429:
                    raise
                await asyncio.sleep(min(refused.retry_after or 1.0, MAX_RETRY_AFTER))
        return await self._call_once(method, path, **kwargs)

    async def _call_once(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        assert self._session is not None
        retry_after: str | None = None
        try:
            async with self._session.request(method, path, **kwargs) as response:
                status = response.status
                retry_after = response.headers.get("Retry-After")
                text = await response.text()
        except (aiohttp.ClientError, OSError) as failed:
            reason = str(failed) or type(failed).__name__
            raise CliError(f"gateway {self._base_url} unreachable: {reason}") from None
        except TimeoutError:
            raise CliError(f"gateway {self._base_url} did not answer {method} {path} in time") from None
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if not isinstance(body, dict) or "result" not in body:
            raise CliError(f"{method} {path}: HTTP {status} from {self._base_url} is not an LPS gateway's answer")
        if body["result"] != 0:
            error = GatewayError(method, path, status, body)
            if retry_after:
                with contextlib.suppress(ValueError):  # an HTTP-date: the caller's own wait
                    error.retry_after = float(retry_after)
            raise error
        return body

    async def submit(self, products: Sequence[dict[str, Any]], priority: str | None) -> list[dict[str, Any]]:
        payload: dict[str, Any] = {"products": list(products)}
        if priority:
            payload["priority"] = priority
        return (await self._call("POST", "/v1/lps/search", json=payload))["jobs"]

    async def job(self, job_id: str) -> dict[str, Any]:
        return (await self._call("GET", f"/v1/lps/jobs/{job_id}"))["job"]

    async def jobs_page(self, **filters: str | int | None) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the listing (newest first) and the cursor of the next, None on the last page."""
        params = {key: str(value) for key, value in filters.items() if value is not None}
        body = await self._call("GET", "/v1/lps/jobs", params=params)
        return body["jobs"], body.get("next_cursor")

    async def jobs(self, **filters: str | int | None) -> list[dict[str, Any]]:
        return (await self.jobs_page(**filters))[0]

    def each_job(
        self, filters: Mapping[str, str | None] | None = None, *, limit: int | None = None, **more: str | None
    ) -> AsyncIterator[dict[str, Any]]:
        """Every job the filters match (at most `limit`), newest first, page after page by cursor."""
        return self._by_cursor("GET", "/v1/lps/jobs", "jobs", {**(filters or {}), **more}, limit=limit)

    async def _by_cursor(
        self, method: str, path: str, key: str, params: Mapping[str, str | None], *, limit: int | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Every item under `key` of a paged answer (at most `limit`), page after page by its `next_cursor`."""
        query = {name: value for name, value in params.items() if value is not None}
        cursor: str | None = None
        seen = 0
        while limit is None or seen < limit:
            size = PAGE_SIZE if limit is None else min(PAGE_SIZE, limit - seen)
            page = query | {"limit": str(size)} | ({"cursor": cursor} if cursor else {})
            body = await self._call(method, path, params=page)
            for item in body[key]:
                yield item
            seen += len(body[key])
            if (cursor := body.get("next_cursor")) is None:
                return

    async def stats(self) -> dict[str, Any]:
        return await self._call("GET", "/v1/lps/queue/stats")

    async def retry(self, job_id: str) -> dict[str, Any]:
        return (await self._call("POST", f"/v1/lps/jobs/{job_id}/retry"))["job"]

    def each_redrive(self, filters: Mapping[str, str | None]) -> AsyncIterator[dict[str, Any]]:
        """POST /v1/lps/jobs/redrive page after page by cursor: what became of each DEAD job the filters match."""
        return self._by_cursor("POST", "/v1/lps/jobs/redrive", "jobs", filters)

    async def set_paused(self, queue: str, *, paused: bool) -> dict[str, Any]:
        """POST /v1/lps/queues/{queue}/pause (or /resume): the queue's pause afterwards."""
        return await self._call("POST", f"/v1/lps/queues/{queue}/{'pause' if paused else 'resume'}")

    async def discard(self, job_id: str) -> dict[str, Any]:
        """DELETE /v1/lps/jobs/{job_id}: what the audit trail kept of the discarded DEAD job."""
        return (await self._call("DELETE", f"/v1/lps/jobs/{job_id}"))["discarded"]

    async def add_watches(self, products: Sequence[dict[str, Any]], schedule: dict[str, str]) -> list[dict[str, Any]]:
        """POST /v1/lps/watches: `schedule` holds every or cron, and notify / priority when given."""
        return (await self._call("POST", "/v1/lps/watches", json={"products": list(products), **schedule}))["watches"]

    def each_watch(self, product_code: str | None, *, limit: int) -> AsyncIterator[dict[str, Any]]:
        """Watches in creation order (at most `limit`), page after page by cursor."""
        return self._by_cursor("GET", "/v1/lps/watches", "watches", {"product_code": product_code or None}, limit=limit)

    async def change_watch(self, watch_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """PATCH /v1/lps/watches/{id}: the fields given replace the watch's (None clears one); the watch after."""
        path = f"/v1/lps/watches/{quote(watch_id, safe='')}"
        return (await self._call("PATCH", path, json=changes))["watch"]

    async def watch_action(self, method: str, watch_id: str, action: str = "") -> dict[str, Any]:
        """PATCH-less changes of one watch: POST …/pause or …/resume, DELETE it."""
        return await self._call(method, f"/v1/lps/watches/{quote(watch_id, safe='')}{action}")

    async def delivery_of(self, search: dict[str, Any]) -> dict[str, Any] | None:
        """The OUTBOX job that delivers a DONE search, if it exists yet: the product's OUTBOX jobs created since
        the search finished (`product_created_at`), matched by `source_job_id`."""
        if search.get("status") != JobStatus.DONE.name or not search.get("finished_at"):
            return None
        # A reconciler on another host may stamp the delivery by a clock a little behind the worker's.
        since = datetime.fromisoformat(search["finished_at"]) - DELIVERY_CLOCK_SLACK
        filters = {"job_type": "OUTBOX", "product_code": search["product_code"], "since": since.isoformat()}
        async for job in self.each_job(**filters):
            if job.get("source_job_id") == search["job_id"]:
                return job
        return None


# Reading a products file --------------------------------------------------------------------------------------


@dataclass(slots=True)
class InputRow:
    """One product of the file: where it is (`line 3`, `item 2`), what it asks for, and what is wrong with it."""

    where: str
    product: dict[str, Any]
    errors: list[str] = field(default_factory=list)


def read_products(path: Path) -> list[InputRow]:
    """Every product of a CSV (header: product_code,keyword[,model_no,target_price,sources]) or JSON file,
    each checked against the API's rules. Raises UsageError when the file itself cannot be used."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a products file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except OSError as failed:
        raise UsageError(f"{path}: cannot read it ({failed.strerror or failed})") from None
    rows = _json_rows(path, text) if path.suffix.lower() == ".json" else _csv_rows(path, text)
    if not rows:
        raise UsageError(f"{path}: no products in it")
    _check(rows)
    return rows


def _json_rows(path: Path, text: str) -> list[InputRow]:
    try:
        data = json.loads(text)
    except ValueError as bad:
        raise UsageError(f"{path}: not valid JSON ({bad})") from None
    items = data.get("products") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise UsageError(f'{path}: expected a list of products or {{"products": [...]}}')
    rows = []
    for index, item in enumerate(items):
        row = InputRow(f"item {index}", item if isinstance(item, dict) else {})
        if not isinstance(item, dict):
            row.errors.append(f"not an object: {json.dumps(item, ensure_ascii=False)[:60]}")
        rows.append(row)
    return rows


def _csv_rows(path: Path, text: str) -> list[InputRow]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in reader.fieldnames or []]
    except csv.Error as bad:
        raise UsageError(f"{path}: not a readable CSV ({bad})") from None
    if not header:
        raise UsageError(f"{path}: empty; the first line must be a header with product_code and keyword")
    reader.fieldnames = header
    for required in ("product_code", "keyword"):
        if required not in header:
            raise UsageError(
                f"{path}: the header has no {required} column (found: {', '.join(header)}; "
                f"expected: {', '.join(CSV_COLUMNS)})"
            )
    if unknown := [name for name in header if name not in CSV_COLUMNS]:
        raise UsageError(f"{path}: unknown column(s) {', '.join(unknown)} (known: {', '.join(CSV_COLUMNS)})")
    rows = []
    try:
        for record in reader:
            # The record's last line: its only one unless a quoted cell spans lines.
            rows.append(_csv_row(f"line {reader.line_num}", record, len(header)))
    except csv.Error as bad:
        raise UsageError(f"{path}: line {reader.line_num}: not readable as CSV ({bad})") from None
    return rows


def _csv_row(where: str, record: dict[str | None, Any], width: int) -> InputRow:
    row = InputRow(where, {})
    if None in record:
        row.errors.append(f"{width + len(record[None])} fields, the header has {width}")
    cells = {name: (value or "").strip() for name, value in record.items() if name is not None}
    row.product = {"product_code": cells["product_code"], "keyword": cells["keyword"]}
    if cells.get("model_no"):
        row.product["model_no"] = cells["model_no"]
    if price := cells.get("target_price"):
        try:
            row.product["target_price"] = int(price.replace(",", ""))
        except ValueError:
            row.errors.append(f"target_price: not a whole number of won: {price!r}")
    if sources := cells.get("sources"):
        row.product["sources"] = [name.strip() for name in re.split(r"[;,]", sources) if name.strip()]
    return row


_PRODUCT = ProductSchema()


def _check(rows: list[InputRow]) -> None:
    """The API's own rules (ProductSchema), and each product_code once: the gateway would keep the first."""
    first_seen: dict[str, str] = {}
    for row in rows:
        if not row.product and row.errors:
            continue
        row.errors += flatten_errors(_PRODUCT.validate(row.product))
        code = row.product.get("product_code")
        if isinstance(code, str) and code:
            if code in first_seen:
                row.errors.append(f"product_code: {code} repeats {first_seen[code]}")
            else:
                first_seen[code] = row.where


# Submitting and waiting --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Submission:
    """What `lps submit` did: each submitted row with its job as last seen, the rows refused, and whether the
    wait ran out."""

    submitted: list[tuple[InputRow, dict[str, Any]]] = field(default_factory=list)
    refused: list[InputRow] = field(default_factory=list)
    timed_out: bool = False
    deliveries: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    @property
    def jobs(self) -> list[dict[str, Any]]:
        return [job for _, job in self.submitted]


def refused_in_batch(error: GatewayError, batch: Sequence[InputRow]) -> dict[int, list[str]]:
    """The products the gateway refused by position in the batch (result 101 with errors.products.<index>)."""
    if error.result != 101 or not isinstance(error.errors, dict):
        return {}
    products = error.errors.get("products")
    if not isinstance(products, dict):
        return {}
    refused = {}
    for key, messages in products.items():
        if str(key).isdigit() and int(key) < len(batch):
            refused[int(key)] = flatten_errors(messages)
    return refused


async def submit_rows(
    client: GatewayClient,
    rows: Sequence[InputRow],
    *,
    batch: int = 100,
    priority: str | None = None,
    skip_invalid: bool = False,
    stream: TextIO = sys.stderr,
) -> tuple[list[tuple[InputRow, dict[str, Any]]], list[InputRow]]:
    """Enqueue valid rows in batches; (row, answer) for each enqueued one, and the rows the gateway refused.

    The gateway checks what the file cannot (the sources this deployment enables): a refused product is reported
    by its line; with `skip_invalid` the rest of its batch is sent again without it, otherwise nothing more is sent
    (earlier batches stay enqueued).
    """
    answers: list[tuple[InputRow, dict[str, Any]]] = []
    refused: list[InputRow] = []
    progress = ProgressLine(stream)
    for start in range(0, len(rows), batch):
        pending = list(rows[start : start + batch])
        while pending:
            try:
                jobs = await client.submit([row.product for row in pending], priority)
            except GatewayError as error:
                if not (by_index := refused_in_batch(error, pending)):
                    raise
                for index, messages in by_index.items():
                    pending[index].errors += messages
                refused += [pending[index] for index in sorted(by_index)]
                if not skip_invalid:
                    return answers, refused
                pending = [row for index, row in enumerate(pending) if index not in by_index]
                continue
            answers += zip(pending, jobs, strict=True)
            break
        progress.update(f"  {len(answers)}/{len(rows)} enqueued")
    progress.close()
    return answers, refused


class ProgressLine:
    """A progress line: redrawn in place on a terminal; elsewhere (a log, CI, a pipe) one line per change, at most
    one every `every` seconds, never hundreds of `\r` segments on one line."""

    def __init__(self, stream: TextIO, *, every: float = 5.0) -> None:
        self._stream = stream
        self._terminal = stream.isatty()
        self._every = every
        self._shown = ""
        self._shown_at = float("-inf")
        self._latest = ""

    def update(self, text: str) -> None:
        self._latest = text
        if self._terminal:
            self._stream.write(f"\r{text}")
        elif text != self._shown and time.monotonic() - self._shown_at >= self._every:
            self._stream.write(f"{text}\n")
            self._shown, self._shown_at = text, time.monotonic()
        else:
            return
        self._stream.flush()

    def close(self) -> None:
        """The last state is always shown, and a terminal's line ended."""
        if self._terminal:
            self._stream.write("\n")
        elif self._latest and self._latest != self._shown:
            self._stream.write(f"{self._latest}\n")
        self._stream.flush()


def _bar(done: int, total: int) -> str:
    width = 30
    filled = width * done // max(total, 1)
    return f"  {done}/{total} ended [{'#' * filled}{'.' * (width - filled)}]"


#: Reasons a progress line names at most (the commonest first), and how long each may be.
WAITING_REASONS = 3
REASON_WIDTH = 60


def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def waiting_note(jobs: Iterable[dict[str, Any]], now: datetime) -> str:
    """Why the PENDING jobs among `jobs` (as the API answers them) do not run yet, as the dashboard's job page says
    it: `waiting: 3 deferred (coupang: circuit breaker OPEN for 60s), 1 in backoff after BLOCKED`; "" when none
    waits (those due only wait for a free worker)."""
    reasons: Counter[str] = Counter()
    for job in jobs:
        if job.get("status") != JobStatus.PENDING.name:
            continue
        deferred = job.get("deferred") or None
        parsed = job | {"run_after": _when(job.get("run_after"))}
        if deferred:
            parsed["deferred"] = deferred | {"until": _when(deferred.get("until"))}
        found = waiting(parsed, now)
        if found is not None and found.kind == "deferred":
            reasons[f"deferred ({found.why[:REASON_WIDTH]})"] += 1
        elif found is not None:
            reasons[f"in backoff after {found.error_type or 'a failed attempt'}"] += 1
        elif parsed["run_after"] is not None and parsed["run_after"] > now:
            reasons["not before its run_after"] += 1
    if not reasons:
        return ""
    shown = reasons.most_common(WAITING_REASONS)
    others = sum(reasons.values()) - sum(count for _, count in shown)
    note = ", ".join(f"{count} {reason}" for reason, count in shown)
    return f" waiting: {note}" + (f", {others} for other reasons" if others else "")


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

    progress = ProgressLine(stream)
    while pending:
        await asyncio.gather(*(poll(job_id) for job_id in pending))
        pending = [job_id for job_id in pending if not has_ended(latest[job_id]["status"])]
        note = waiting_note((latest[job_id] for job_id in pending), datetime.now(UTC))
        progress.update(_bar(len(latest) - len(pending), len(latest)) + note)
        if not pending or time.monotonic() > deadline:
            break
        await asyncio.sleep(min(1.0, max(deadline - time.monotonic(), 0.0)))
    progress.close()
    return latest


async def deliveries_of(client: GatewayClient, jobs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any] | None]:
    """The delivery (OUTBOX) job of each DONE search, by search job id (None: none yet, or no deliveries)."""
    limit = asyncio.Semaphore(POLL_CONCURRENCY)

    async def one(job: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        async with limit:
            return job["job_id"], await client.delivery_of(job)

    return dict(await asyncio.gather(*(one(job) for job in jobs if job.get("status") == JobStatus.DONE.name)))


async def run_submission(
    client: GatewayClient,
    rows: Sequence[InputRow],
    *,
    batch: int = 100,
    priority: str | None = None,
    within: float = 1800,
    skip_invalid: bool = False,
    stream: TextIO = sys.stderr,
) -> Submission:
    """Enqueue, wait for every job to end (or `within` seconds), then look up each DONE search's delivery."""
    batch = max(1, min(batch, MAX_PRODUCTS_PER_REQUEST))
    submitted, refused = await submit_rows(
        client, rows, batch=batch, priority=priority, skip_invalid=skip_invalid, stream=stream
    )
    outcome = Submission(refused=refused)
    if refused and not skip_invalid:
        outcome.submitted = submitted
        return outcome
    jobs = await wait_for_jobs(client, [answer["job_id"] for _, answer in submitted], within=within, stream=stream)
    outcome.submitted = [(row, jobs[answer["job_id"]]) for row, answer in submitted]
    outcome.timed_out = any(not has_ended(job["status"]) for job in outcome.jobs)
    outcome.deliveries = await deliveries_of(client, outcome.jobs)
    return outcome


async def submit_and_wait(
    client: GatewayClient,
    products: Sequence[dict[str, Any]],
    *,
    batch: int = 100,
    priority: str | None = None,
    within: float = 1800,
    stream: TextIO = sys.stderr,
) -> list[dict[str, Any]]:
    """Enqueue products already known to be valid, wait, and return one result row per product in order."""
    rows = [InputRow(f"item {index}", dict(product)) for index, product in enumerate(products)]
    done = await run_submission(client, rows, batch=batch, priority=priority, within=within, stream=stream)
    return [result_row(job, done.deliveries.get(job["job_id"])) for job in done.jobs]


# Results -----------------------------------------------------------------------------------------------------


def succeeded(job: dict[str, Any]) -> bool:
    """DONE, and every requested source answered (`result.complete`)."""
    return job.get("status") == JobStatus.DONE.name and (job.get("result") or {}).get("complete") is True


def result_row(job: dict[str, Any], delivery: dict[str, Any] | None = None) -> dict[str, Any]:
    """One product's answer, columns named for what they are (FILE_COLUMNS).

    `shipping` is the winning offer's shipping badge (ROCKET, GENERAL, …); `delivery_status` is the status of the
    OUTBOX job that sends the result to the back office (DONE: delivered). The error is the job's last one, shown
    unless the job succeeded completely (a retried success keeps its old `last_error`).
    """
    result = job.get("result") or {}
    lowest = result.get("lowest") or {}
    error = {} if succeeded(job) else job.get("last_error") or {}
    return {
        "product_code": job.get("product_code"),
        "job_id": job.get("job_id"),
        "status": job.get("status"),
        "outcome": result.get("outcome"),
        "complete": result.get("complete"),
        "lowest_price": lowest.get("price"),
        "source": lowest.get("source"),
        "title": lowest.get("title"),
        "url": lowest.get("url"),
        "shipping": lowest.get("delivery"),
        "delivery_status": (delivery or {}).get("status"),
        "error_type": error.get("type"),
        "error_message": error.get("message"),
    }


def summarize(jobs: Sequence[dict[str, Any]]) -> str:
    """One line by outcome: `5 jobs: DONE 3 (FOUND 2, NO_MATCH 1), DONE incomplete 1 (FOUND 1), DEAD 1 (BLOCKED 1)`."""
    done = JobStatus.DONE.name
    incomplete = f"{done} incomplete"
    groups: dict[str, Counter[str | None]] = {}
    for job in jobs:
        status = job.get("status") or "?"
        result = job.get("result") or {}
        if status == done:
            group, detail = (done if succeeded(job) else incomplete), result.get("outcome")
        else:
            group, detail = status, (job.get("last_error") or {}).get("type")
        groups.setdefault(group, Counter())[detail] += 1
    order = [done, incomplete, JobStatus.DEAD.name, JobStatus.RUNNING.name, JobStatus.PENDING.name]
    parts = []
    for group in sorted(groups, key=lambda name: order.index(name) if name in order else len(order)):
        details = ", ".join(f"{name} {count}" for name, count in groups[group].most_common() if name)
        parts.append(f"{group} {groups[group].total()}" + (f" ({details})" if details else ""))
    return f"{len(jobs)} job(s): " + ", ".join(parts) if parts else "no jobs"


def write_results(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """The results as JSON (a list of objects) or CSV (FILE_COLUMNS; booleans as true/false)."""
    if path.suffix.lower() == ".json":
        payload = [{column: row.get(column) for column in FILE_COLUMNS} for row in rows]
        path.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=FILE_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {key: str(value).lower() if isinstance(value, bool) else value for key, value in row.items()}
            )


# Options -----------------------------------------------------------------------------------------------------

_RELATIVE = re.compile(r"^(\d+(?:\.\d+)?)\s*([mhd])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def parse_since(text: str, now: datetime | None = None) -> str:
    """`--since`: `30m`, `6h`, `2d` back from now, or an ISO date / time (UTC unless it says otherwise); the
    ISO 8601 instant the API takes."""
    now = now or datetime.now(UTC)
    if match := _RELATIVE.match(text.strip()):
        moment = now - timedelta(**{_UNITS[match[2]]: float(match[1])})
    else:
        try:
            moment = datetime.fromisoformat(text.strip())
        except ValueError:
            raise UsageError(
                f"--since {text!r}: give 30m, 6h, 2d or an ISO date/time such as 2025-01-31T09:00"
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


# Stats -------------------------------------------------------------------------------------------------------

#: What the reconciler counts, in the order of its pass, and what each means.
RECONCILER_ACTIONS = {
    "republished_unconfirmed": "PENDING jobs the broker never confirmed, published",
    "republished_lost": "PENDING jobs long past run_after (message lost), published again",
    "recovered": "RUNNING jobs whose worker stopped, PENDING again",
    "recovered_dead": "RUNNING jobs whose worker stopped in their last attempt, DEAD",
    "dead_lettered": "dead letters (.XQ) whose job was still active, now DEAD",
    "dead_letters_of_ended_jobs": "dead letters (.XQ) of jobs already DONE or DEAD, acknowledged",
    "dead_letters_kept": "dead letters (.XQ) naming no job, kept in dead_letters",
    "outbox_created": "DONE searches without a delivery job, given one",
}


def format_stats(body: Mapping[str, Any]) -> str:
    """`lps stats`: jobs by type and status, the queues, and the reconciler's totals, as plain tables."""
    by_type: Mapping[str, Mapping[str, int]] = body.get("by_type") or {}
    delayed: Mapping[str, int] = body.get("delayed") or {}
    statuses = [status.name for status in JobStatus]
    # `delayed` counts PENDING jobs, so its column stands beside PENDING (the first status).
    pending, *later = statuses
    job_rows = [
        {"jobs": job_type, **counts, "delayed": delayed.get(job_type)} for job_type, counts in sorted(by_type.items())
    ]
    sections = [
        format_table(job_rows, ("jobs", pending, "delayed", *later)),
        "delayed: PENDING jobs waiting for a retry's backoff to end (run_after in the future, counted in MongoDB)",
        f"DONE and DEAD: every job that ended before {body.get('counted_until') or '-'} (a re-driven job counts "
        "again when it ends again)",
    ]
    if not by_type:
        sections[0] = format_table([{"jobs": "all", **(body.get("stats") or {})}], ("jobs", *statuses))
    queues: Mapping[str, Mapping[str, int]] | None = body.get("queues")
    if queues:
        queue_rows = [
            {"queue": name, "ready": info.get("messages"), "consumers": info.get("consumers"), "dead": info.get("dead")}
            for name, info in sorted(queues.items())
        ]
        sections += [
            "",
            format_table(queue_rows, ("queue", "ready", "consumers", "dead")),
            "ready: messages waiting for a worker; consumers 0: no pool is running; dead: dead letters in .XQ",
        ]
    else:
        sections += ["", f"queues: {body.get('message') or 'unknown'}"]
    totals: Mapping[str, int] = body.get("reconciler") or {}
    names = [*RECONCILER_ACTIONS, *sorted(set(totals) - set(RECONCILER_ACTIONS))]
    reconciler_rows = [
        {"reconciler": name, "total": int(totals.get(name, 0)), "meaning": RECONCILER_ACTIONS.get(name, "")}
        for name in names
    ]
    sections += ["", format_table(reconciler_rows, ("reconciler", "total", "meaning"))]
    return "\n".join(sections)
