"""The job list (/ui/jobs: every job, filtered and paged as GET /v1/lps/jobs pages them, and "find by job id"), one
job's page (/ui/jobs/{job_id}: what it does next, its attempts per life, its delivery, the document itself), and a
blocked page's snapshot it links to.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from multidict import MultiDict, MultiMapping

from infra.clock import utcnow
from infra.job_documents import parse_job_id
from infra.snapshots import snapshot_ids
from infra.waiting import waiting
from schemas.codes import ErrorType, JobType
from schemas.envelope import json_default
from service.errors import ApiError
from service.keys import DATABASE, SETTINGS, caller_of
from service.snapshots import snapshot_file
from service.ui import job_lists
from service.ui.pages import error_page, signed_in
from service.ui.reads import lives, running_for
from service.ui.signin import UI, Visitor


def _find_job(query: MultiMapping[str]) -> None:
    """The job list's "find by job id": straight to the job's page (a malformed id is refused with 101)."""
    raw = query.get("job_id", "").strip()
    job_id = parse_job_id(raw.lower())
    if job_id is None:
        message = "must be a job id: 24 hex digits"
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid job id", errors={"job_id": [message]})
    raise web.HTTPSeeOther(f"{UI}/jobs/{job_id}")


async def jobs(request: web.Request) -> tuple[str, dict[str, Any]]:
    job_lists.canonical_query(request)
    if "job_id" in request.query:
        _find_job(request.query)
    found, next_cursor = await job_lists.operations(request).page(request.query, caller_of(request))
    short_page = job_lists.short_page(found, next_cursor, request.query)
    context = {"jobs": found, "next_cursor": next_cursor, "short_page": short_page, "page": "jobs"}
    context |= job_lists.listed(request)
    return "jobs.html", context | {"filters": job_lists.filters(request.query)} | job_lists.filter_choices(request)


async def job(request: web.Request) -> tuple[str, dict[str, Any]]:
    operations = job_lists.operations(request)
    shown = await operations.get(request.match_info["job_id"])
    delivery_job = None
    if shown["job_type"] == JobType.SEARCH.name:
        # Through the listing, as GET /v1/lps/jobs?source_job_id= reads it (one point lookup on its index).
        deliveries, _ = await operations.page(MultiDict(source_job_id=shown["job_id"]), caller_of(request))
        delivery_job = deliveries[0] if deliveries else None
    now = utcnow()
    context: dict[str, Any] = {
        "job": shown,
        "delivery_job": delivery_job,
        "snapshots": snapshot_ids(shown),
        "page": "jobs",
        "now": now,
        "waiting": waiting(shown, now),
        "lives": lives(shown),
        "running_for": running_for(shown, now),
        # The document as GET /v1/lps/jobs/{id} answers it, for copying.
        "raw": json.dumps(shown, default=json_default, indent=2, ensure_ascii=False),
    }
    return "job.html", context


async def snapshot(request: web.Request) -> web.StreamResponse:
    """A blocked page's HTML or screenshot, as the API serves it (sandboxed), for a signed-in dashboard."""
    found = await signed_in(request)
    if not isinstance(found, Visitor):
        return found
    try:
        snapshot_id, kind = request.match_info["snapshot_id"], request.match_info["kind"]
        return await snapshot_file(request.config_dict[DATABASE], request.config_dict[SETTINGS], snapshot_id, kind)
    except ApiError as error:
        return error_page(request, error)
