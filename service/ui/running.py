"""The running page (/ui/running): RUNNING jobs, as Sidekiq's Busy page shows them, with how long each has run."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from multidict import MultiDict

from infra.clock import utcnow
from schemas.codes import JobStatus
from service.keys import caller_of
from service.ui import job_lists
from service.ui.reads import running_for

#: The most RUNNING jobs the "now running" page shows (the newest first).
RUNNING_SHOWN = 200


async def running(request: web.Request) -> tuple[str, dict[str, Any]]:
    """RUNNING jobs (Sidekiq's Busy page): worker, attempt, how long it has run; through the listing's status index.
    `?job_type=` shows one type's (the overview's consumers of a queue lead there), checked as the listing checks it."""
    parameters = MultiDict(status=JobStatus.RUNNING.name, limit=str(RUNNING_SHOWN))
    job_type = request.query.get("job_type")
    if job_type:
        parameters["job_type"] = job_type
    found, next_cursor = await job_lists.operations(request).page(parameters, caller_of(request))
    now = utcnow()
    rows = [(each, running_for(each, now)) for each in found]
    rows.sort(key=lambda row: row[0].get("started_at") or now)
    context = {"rows": rows, "more": next_cursor is not None, "now": now, "job_type": job_type, "page": "running"}
    context |= job_lists.listed(request)
    return "running.html", context
