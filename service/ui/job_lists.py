"""What the dashboard's job lists share (the jobs, running and dead pages, and the pages of one job they lead to): the
job operations they read through, the filter form's choices, the query as it is meant, the filters a page passes on,
short pages, and what a list that refreshes itself needs.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from multidict import MultiMapping

from infra.clock import utcnow
from infra.job_listing import LISTING_WALK
from schemas.codes import JobStatus, JobType
from schemas.job_listing import JOB_PAGE_DEFAULT
from schemas.offers import SOURCE_OUTCOMES
from service.job_operations import JobOperations
from service.keys import JOB_OPERATIONS, SETTINGS
from service.ui.live import REFRESH_SECONDS
from service.ui.reads import KNOWN_ERROR_TYPES, known_error_type


def operations(request: web.Request) -> JobOperations:
    return request.config_dict[JOB_OPERATIONS]


def filters(query: MultiMapping[str], *, without: tuple[str, ...] = ()) -> dict[str, str]:
    """The listing filters a page shows and passes on (its cursor is the page's own)."""
    return {key: value for key, value in query.items() if key not in ("cursor", *without)}


def short_page(found: list[dict[str, Any]], next_cursor: str | None, query: MultiMapping[str]) -> bool:
    """A page with fewer jobs than asked that still has a next one: its walk stopped (a filter read on the way)."""
    return next_cursor is not None and len(found) < int(query.get("limit", JOB_PAGE_DEFAULT))


def listed(request: web.Request) -> dict[str, Any]:
    """What a list that refreshes itself needs (static/refresh.js): its own address (its filters and cursor kept),
    how often, and when its jobs were read."""
    return {"own_url": request.rel_url.path_qs, "refresh_seconds": REFRESH_SECONDS, "taken_at": utcnow()}


#: Filters whose values are upper-case words: the form takes them in any case.
_UPPER_CASE_FILTERS = ("error_type", "source_outcome")


def canonical_query(request: web.Request) -> None:
    """The filter form sends its empty fields ("any"): drop them rather than refuse them; an error type or outcome
    typed in lower case is the upper-case one. Either way, to the page's own address with the query as it is meant."""
    given = [
        (key, known_error_type(value) if key in _UPPER_CASE_FILTERS else value)
        for key, value in request.query.items()
        if value.strip()
    ]
    if given != list(request.query.items()):
        raise web.HTTPSeeOther(str(request.rel_url.with_query(given)))


def filter_choices(request: web.Request) -> dict[str, Any]:
    """What the filter form offers (filters.html): the sources this deployment enables, the known error types."""
    return {
        "statuses": [s.name for s in JobStatus],
        "types": [t.name for t in JobType],
        "sources": list(request.config_dict[SETTINGS].search_sources),
        "source_outcomes": SOURCE_OUTCOMES,
        "error_types": KNOWN_ERROR_TYPES,
        "walk": LISTING_WALK,
    }
