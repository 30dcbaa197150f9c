"""The operator's side of the HTTP API: what `lps submit`, `lps jobs`, `lps stats` and `lps redrive` send.

It speaks to a running gateway (LPS_GATEWAY_URL, default http://LPS_HTTP_HOST:LPS_HTTP_PORT) with the
key in LPS_API_KEY when the gateway wants one. Every failure it reports is a `CliError`: one line, and the
exit status it calls for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp

from infra.settings import Settings
from schemas.codes import JobStatus
from tools.cli_errors import CliError, UsageError, flatten_errors

#: Jobs per listing page when the CLI walks a listing.
PAGE_SIZE = 500
#: How long one HTTP call may take before the CLI gives up on the gateway.
CALL_TIMEOUT = aiohttp.ClientTimeout(total=120, sock_connect=10)

#: How much earlier than its search's end a delivery job may say it was created (clocks of two hosts).
DELIVERY_CLOCK_SLACK = timedelta(minutes=10)

#: Calls made of one request the gateway rate-limits (429), and the longest wait between them, seconds.
RATE_LIMITED_TRIES = 5
MAX_RETRY_AFTER = 30.0


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

    async def redrive(self, job_id: str) -> dict[str, Any]:
        """POST /v1/lps/jobs/{job_id}/retry: the DEAD job, re-driven (PENDING again, its history kept)."""
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
