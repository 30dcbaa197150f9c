"""Submitting products and waiting for their jobs (`lps submit`, `lps dev --demo`): enqueue in batches, poll until
every job ended, then look up each DONE search's delivery."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

from schemas.codes import JobStatus, has_ended
from schemas.search_request import MAX_PRODUCTS_PER_REQUEST
from tools.cli_errors import flatten_errors
from tools.gateway_client import GatewayClient, GatewayError
from tools.product_file import InputRow
from tools.progress import ProgressLine, progress_bar, waiting_note
from tools.results import result_row

#: Jobs polled at once while waiting for a submission to end.
POLL_CONCURRENCY = 16


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
        progress.update(progress_bar(len(latest) - len(pending), len(latest)) + note)
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
