"""The dead page (/ui/dead: DEAD jobs grouped by error type, with each group's total) and what an admin does to dead
jobs: re-drive or discard one (from the job and dead pages), or many at once (those ticked, or all matching the dead
page's filters), each by the API's own rules and after a confirmation page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from markupsafe import Markup
from multidict import MultiMapping
from yarl import URL

from infra.mongo import deadline
from schemas.codes import ErrorType
from service.errors import ApiError
from service.job_operations import BULK_PAGES, dead_only, require_admin
from service.keys import DATABASE, SETTINGS, caller_of
from service.ui import job_lists
from service.ui.pages import error_page, posted_form, render
from service.ui.reads import NO_ERROR_TYPE, dead_totals
from service.ui.signin import UI


async def dead(request: web.Request) -> tuple[str, dict[str, Any]]:
    job_lists.canonical_query(request)
    found, next_cursor = await job_lists.operations(request).page(dead_only(request.query), caller_of(request))
    groups: dict[str, list[dict[str, Any]]] = {}
    for each in found:
        groups.setdefault((each.get("last_error") or {}).get("type", NO_ERROR_TYPE), []).append(each)
    with deadline(request.config_dict[SETTINGS]):
        totals = await dead_totals(request.config_dict[DATABASE], list(groups))
    filters = job_lists.filters(request.query, without=("status",))
    links = {
        error_type: str(URL(f"{UI}/dead").with_query(filters | {"error_type": error_type}))
        for error_type in groups
        if error_type != NO_ERROR_TYPE
    }
    context = {"groups": groups, "totals": totals, "group_links": links, "next_cursor": next_cursor, "page": "dead"}
    context |= {"short_page": job_lists.short_page(found, next_cursor, request.query), "bulk_cap": BULK_REDRIVE_CAP}
    context |= job_lists.listed(request)
    return "dead.html", context | {"filters": filters} | job_lists.filter_choices(request)


#: The most jobs one bulk re-drive takes (a confirmation says so; the operator re-drives again for the rest).
BULK_REDRIVE_CAP = 1000


@dataclass(frozen=True, slots=True)
class BulkSelection:
    """The DEAD jobs a bulk re-drive takes: those ticked, or those matching the dead page's filters."""

    job_ids: list[str]
    #: "All matching" the filters (which may be none: every dead job), rather than ticked jobs.
    matching: bool
    filters: dict[str, str]
    #: More jobs match beyond the cap (or beyond the pages read): re-drive again for them.
    more: bool


async def _bulk_selection(request: web.Request, fields: MultiMapping[str]) -> BulkSelection:
    """Read the selection from a confirmation's query or form: `job_id` (repeated), or `matching` and filters.

    The filters are the listing's own, validated by it (101 for anything else); the jobs are collected by the same
    listing the dead page shows (`JobOperations.dead_matching`), up to BULK_REDRIVE_CAP.
    """
    if "matching" not in fields:
        job_ids = list(dict.fromkeys(fields.getall("job_id", [])))
        if not job_ids or len(job_ids) > BULK_REDRIVE_CAP:
            message = f"tick between 1 and {BULK_REDRIVE_CAP:,} jobs"
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, message, errors={"job_id": [message]})
        return BulkSelection(job_ids, matching=False, filters={}, more=False)
    filters = job_lists.filters(fields, without=("matching", "csrf", "job_id", "status", "limit"))
    found, more = await job_lists.operations(request).dead_matching(filters, caller_of(request), cap=BULK_REDRIVE_CAP)
    return BulkSelection(found, matching=True, filters=filters, more=more)


@dataclass(frozen=True, slots=True)
class BulkAction:
    """What the dead page does to many jobs at once (re-drive, discard): one confirmation page, one outcome page."""

    name: str
    verb: str
    #: What happens to each job, for the confirmation (HTML).
    effect: Markup
    done: str


BULK_ACTIONS = {
    "redrive": BulkAction(
        "redrive",
        "Re-drive",
        Markup("re-driven: PENDING again with fresh attempts, as <code>POST /v1/lps/jobs/{id}/retry</code> does."),
        "re-driven",
    ),
    "discard": BulkAction(
        "discard",
        "Discard",
        Markup(
            "discarded for good, as <code>DELETE /v1/lps/jobs/{id}</code> does: gone from the lists and the dead "
            'totals. The <a href="/ui/audit?action=discard">audit trail</a> keeps who discarded each, when, its '
            "product and last error type; the products' price history stays."
        ),
        "discarded",
    ),
}


def _bulk_action(request: web.Request) -> BulkAction:
    return BULK_ACTIONS[request.match_info["action"]]


async def redrive_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET: how many jobs a bulk re-drive (or discard) would take, and the POST form that does it (nothing changes
    here)."""
    action = _bulk_action(request)
    require_admin(caller_of(request), action.name)
    selection = await _bulk_selection(request, request.query)
    context = {"selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP, "pages": BULK_PAGES, "bulk": action}
    return "bulk_redrive.html", context


async def bulk_redrive(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: re-drive (or discard) each job by the API's own rules; show what became of each."""
    form = await posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    action = _bulk_action(request)
    try:
        require_admin(caller_of(request), action.name)
        selection = await _bulk_selection(request, form)
    except ApiError as error:
        return error_page(request, error)
    operations = job_lists.operations(request)
    many = operations.discard_many if action.name == "discard" else operations.redrive_many
    outcomes = _by_outcome(await many(selection.job_ids, caller_of(request)), action.done)
    context = {"outcomes": outcomes, "selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP, "bulk": action}
    return render(request, "bulk_redriven.html", context)


async def redrive_one_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET from the job and dead pages' Re-drive button: what the re-drive will do, and the POST form that does it
    (nothing changes here), as for the bulk re-drive."""
    require_admin(caller_of(request))
    job = await job_lists.operations(request).get(request.match_info["job_id"])
    return "redrive_one.html", {"job": job, "page": "jobs"}


async def redrive(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: re-drive one DEAD job by the API's own rules, then show it."""
    form = await posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    try:
        redriven = await job_lists.operations(request).redrive(request.match_info["job_id"], caller_of(request))
    except ApiError as error:
        return error_page(request, error)
    raise web.HTTPSeeOther(f"{UI}/jobs/{redriven['job_id']}")


async def discard_one_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET from the job page's Discard button: what discarding does, and the POST form that does it."""
    require_admin(caller_of(request), "discard")
    job = await job_lists.operations(request).get(request.match_info["job_id"])
    return "discard_one.html", {"job": job, "page": "dead"}


async def discard_one(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: discard one DEAD job by the API's own rules, then to the dead page."""
    form = await posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    try:
        await job_lists.operations(request).discard(request.match_info["job_id"], caller_of(request))
    except ApiError as error:
        return error_page(request, error)
    raise web.HTTPSeeOther(f"{UI}/dead")


def _by_outcome(results: Mapping[str, ApiError | None], done: str) -> dict[str, list[str]]:
    """Job ids by what became of them, as the dashboard counts them: `done`, or "refused: " and the API's reason."""
    outcomes: dict[str, list[str]] = {}
    for job_id, refusal in results.items():
        outcomes.setdefault(done if refusal is None else f"refused: {refusal.message}", []).append(job_id)
    return outcomes
