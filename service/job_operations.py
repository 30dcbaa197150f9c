"""What the API and the dashboard do to jobs, as plain operations over the repositories (no request in sight): one
page of the listing, one job, a re-drive, and the dashboard's bulk re-drive of DEAD jobs.

The HTTP handlers (service/routes.py for /v1/lps, service/ui/ for /ui) only parse a request, call these and render
the answer, so both apply the same rules: the same validation (INVALID_REQUEST_DATA before any query), the same
per-client listing slots, the same refusals (a read key re-drives nothing). A refusal is the API's `ApiError`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError
from multidict import MultiDict, MultiMapping

from infra.audit import AuditAction, AuditTrail
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer, JobNotFound, JobNotRetryable
from infra.job_documents import parse_job_id
from infra.job_listing import LISTING_WORDS
from infra.jobs import ActiveJobExists, JobRepository
from infra.mongo import deadline
from infra.settings import Settings
from infra.text.search_words import query_words
from schemas.codes import ErrorType, JobStatus, KeyRole
from schemas.job_listing import JOB_PAGE_MAX, MAX_QUERY_WORDS, JobListQuerySchema, encode_job_cursor
from schemas.jobs import job_to_api
from service.errors import ApiError
from service.listing_slots import ListingSlots

#: The most listing pages one "all matching" collection reads: a rare filter stops there, not at history's end.
BULK_PAGES = 10
#: Re-drives in flight at once in a bulk re-drive: the store and the broker see a few, not a thousand.
_BULK_CONCURRENCY = 16


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks, as the gateway's guards (or the dashboard's sign-in) identified them."""

    #: The API key's name (never the key); None where no keys are configured. Recorded with a re-drive.
    key_name: str | None
    #: The key's role (see LPS_API_KEYS); None without keys.
    role: KeyRole | None
    #: Whom per-client limits count it against: the key's name, else its peer address.
    client: str


def require_admin(caller: Caller, refused: str = "re-drive") -> None:
    """A read-only key (`name=key:read` in LPS_API_KEYS) may look but not change: HTTP_INVALID_CLIENT_ACCESS
    (`refused` names what it asked for)."""
    if not KeyRole.may_change(caller.role):
        raise ApiError(ErrorType.HTTP_INVALID_CLIENT_ACCESS, f"this API key may only read; {refused} refused")


def dead_only(filters: MultiMapping[str] | Mapping[str, str]) -> MultiDict[str]:
    """The listing's parameters `filters` with the status DEAD (the dead page and its bulk re-drive)."""
    parameters = MultiDict(filters)
    parameters["status"] = JobStatus.DEAD.name
    return parameters


class JobOperations:
    """The job store as the API shows it: jobs come back as `job_to_api` documents, refusals as ApiError."""

    def __init__(
        self,
        settings: Settings,
        jobs: JobRepository,
        enqueuer: JobEnqueuer,
        slots: ListingSlots,
        audit: AuditTrail | None = None,
    ) -> None:
        self._settings = settings
        self._jobs = jobs
        self._enqueuer = enqueuer
        self._slots = slots
        self._audit = audit

    async def page(self, parameters: MultiMapping[str], caller: Caller) -> tuple[list[dict[str, Any]], str | None]:
        """One page of jobs for the listing's `parameters` (as a query string names them), and the next page's
        cursor.

        The one way jobs are listed: the API and the dashboard both call it. Bad parameters are
        INVALID_REQUEST_DATA with per-field errors, raised before any query.
        """
        # A repeated parameter is refused, not silently narrowed to its first value.
        repeated = {key: ["given more than once"] for key in parameters if len(parameters.getall(key)) > 1}
        try:
            if repeated:
                raise ValidationError(repeated)
            query = JobListQuerySchema().load(parameters)
        except ValidationError as error:
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors=error.messages) from None
        if "q" in query:
            query[LISTING_WORDS] = await self._query_words(query.pop("q"))
        limit, after = query.pop("limit"), query.pop("cursor", None)
        since, until = query.pop("since", None), query.pop("until", None)
        # One more than asked: whether a next page exists is known without an empty last page.
        with self._slots.taken(caller.client), deadline(self._settings):
            page = await self._jobs.newest(query, limit + 1, since=since, until=until, after=after)
        jobs = page.jobs
        if len(jobs) > limit:
            next_cursor: str | None = encode_job_cursor(jobs[limit - 1]["created_at"], jobs[limit - 1]["_id"])
        else:
            next_cursor = encode_job_cursor(*page.walked_to) if page.walked_to else None
        return [job_to_api(job) for job in jobs[:limit]], next_cursor

    @staticmethod
    async def _query_words(q: str) -> list[str]:
        """`q=` as the words it asks for (INVALID_REQUEST_DATA when it holds none, or too many): split off the event
        loop, as a job's words are."""
        words = await asyncio.to_thread(query_words, q)
        if not words or len(words) > MAX_QUERY_WORDS:
            message = f"give between 1 and {MAX_QUERY_WORDS} words (letters or digits)"
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors={"q": [message]})
        return words

    async def get(self, raw_job_id: str) -> dict[str, Any]:
        """One job, or LPS_JOB_NOT_FOUND (a malformed id is not found either)."""
        job_id = parse_job_id(raw_job_id)
        with deadline(self._settings):
            job = await self._jobs.get(job_id) if job_id else None
        if job is None:
            raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such job")
        return job_to_api(job)

    async def redrive(self, raw_job_id: str, caller: Caller) -> dict[str, Any]:
        """Re-drive a DEAD job for an admin key (the API's retry and the dashboard's buttons): the job afterwards."""
        require_admin(caller)
        job_id = parse_job_id(raw_job_id)
        if job_id is None:
            raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such job")
        try:
            with deadline(self._settings):
                job = await self._enqueuer.redrive(job_id, by=caller.key_name)
        except JobNotFound:
            raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such job") from None
        except JobNotRetryable as status:
            raise ApiError(
                ErrorType.LPS_JOB_NOT_RETRYABLE, f"only a DEAD job can be re-driven; this one is {status}"
            ) from None
        except ActiveJobExists:
            raise ApiError(
                ErrorType.DB_ALREADY_SAME_KEY, "its product already has an active search job; re-drive refused"
            ) from None
        return job_to_api(job)

    async def discard(self, raw_job_id: str, caller: Caller) -> dict[str, Any]:
        """Delete a DEAD job for good, for an admin key (the API's DELETE, the dashboard's Discard, `lps discard`),
        and record who discarded what in the audit trail: the record (job_id, job_type, product_code, error_type,
        by, at). LPS_JOB_NOT_FOUND when there is no such job, LPS_JOB_NOT_DISCARDABLE (409) when it is not DEAD."""
        require_admin(caller, "discard")
        job_id = parse_job_id(raw_job_id)
        if job_id is None:
            raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such job")
        now = utcnow()
        with deadline(self._settings):
            gone = await self._jobs.discard(job_id)
            if gone is None:
                current = await self._jobs.get_current(job_id)
                if current is None:
                    raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such job")
                raise ApiError(
                    ErrorType.LPS_JOB_NOT_DISCARDABLE,
                    f"only a DEAD job can be discarded; this one is {current['status']}",
                )
            record = {
                "job_id": str(job_id),
                "job_type": gone.get("job_type"),
                "product_code": gone.get("product_code"),
                "error_type": (gone.get("last_error") or {}).get("type"),
                "attempts": gone.get("attempts"),
                "finished_at": gone.get("finished_at"),
            }
            if self._audit is not None:
                await self._audit.record(AuditAction.DISCARD, by=caller.key_name, at=now, **record)
        return {key: value for key, value in record.items() if value is not None} | {"by": caller.key_name, "at": now}

    async def discard_many(self, job_ids: Sequence[str], caller: Caller) -> dict[str, ApiError | None]:
        """Discard each job by the API's own rules, a few at a time: per job id, None when discarded, else the
        refusal."""
        return await self._each(self.discard, job_ids, caller)

    async def dead_matching(self, filters: Mapping[str, str], caller: Caller, *, cap: int) -> tuple[list[str], bool]:
        """The ids of the DEAD jobs matching the listing's `filters` (validated by it: 101 for anything else), read
        by the same listing the dead page shows, in pages, up to `cap` jobs or BULK_PAGES pages; and whether more
        match beyond them."""
        parameters = dead_only(filters)
        collected: list[str] = []
        next_cursor: str | None = None
        for _ in range(BULK_PAGES):
            parameters["limit"] = str(min(JOB_PAGE_MAX, cap - len(collected)))
            found, next_cursor = await self.page(parameters, caller)
            collected += [each["job_id"] for each in found]
            if next_cursor is None or len(collected) >= cap:
                break
            parameters["cursor"] = next_cursor
        return collected, next_cursor is not None

    async def redrive_many(self, job_ids: Sequence[str], caller: Caller) -> dict[str, ApiError | None]:
        """The bulk re-drive: each job re-driven by the API's own rules (`redrive`), a few at a time; per job id, None
        when re-driven, else the refusal (the job stays DEAD). Its jobs are a page of the listing's DEAD jobs for the
        API and `lps redrive --dead` (`redrive_page`), the jobs an operator confirmed for the dashboard."""
        return await self._each(self.redrive, job_ids, caller)

    async def redrive_page(self, filters: Mapping[str, str], caller: Caller) -> tuple[list[dict[str, Any]], str | None]:
        """The bulk re-drive of the API and `lps redrive --dead`: one page of the DEAD jobs the listing's `filters`
        match (its `limit` and `cursor` too), re-driven by `redrive_many`. Per job: its id, product code and
        last error type, and `redriven`, or the API's refusal (`refused`: its result code and message); and the next
        page's cursor. A job refused stays DEAD, so pages go on by cursor, not by what still matches."""
        require_admin(caller)
        if "status" in filters:  # asked of DEAD jobs only: a status given is a mistake, not a filter to override
            message = "the bulk re-drive takes DEAD jobs only: give no status"
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors={"status": [message]})
        found, next_cursor = await self.page(dead_only(filters), caller)
        refusals = await self.redrive_many([job["job_id"] for job in found], caller)
        outcomes = []
        for job in found:
            refusal = refusals[job["job_id"]]
            outcome = {
                "job_id": job["job_id"],
                "product_code": job["product_code"],
                "error_type": (job.get("last_error") or {}).get("type"),
                "redriven": refusal is None,
            }
            if refusal is not None:
                outcome["refused"] = {"result": int(refusal.error_type), "message": refusal.message}
            outcomes.append(outcome)
        return outcomes, next_cursor

    @staticmethod
    async def _each(
        act: Callable[[str, Caller], Awaitable[dict[str, Any]]], job_ids: Sequence[str], caller: Caller
    ) -> dict[str, ApiError | None]:
        """Act on each job by the API's own rules, a few at a time: per job id, None when done, else the refusal."""

        async def one(job_id: str) -> ApiError | None:
            try:
                await act(job_id, caller)
            except ApiError as refused:
                return refused
            return None

        results: dict[str, ApiError | None] = {}
        for batch in itertools.batched(job_ids, _BULK_CONCURRENCY, strict=False):
            answers = await asyncio.gather(*(one(job_id) for job_id in batch))
            results |= dict(zip(batch, answers, strict=True))
        return results
