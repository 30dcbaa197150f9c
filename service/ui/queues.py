"""The dashboard's queue controls and audit trail: pause or resume a job type's work (after a confirmation page, as
every dashboard change), and /ui/audit, what operators paused, resumed and discarded, newest first.

Handlers call the same operation as the API (`service.queue_operations.QueueOperations`): admin only, recorded.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from infra.audit import AuditAction, AuditTrail
from infra.mongo import deadline
from service.errors import ApiError
from service.job_operations import require_admin
from service.keys import DATABASE, QUEUE_OPERATIONS, SETTINGS, caller_of
from service.queue_operations import job_type_of
from service.ui.pages import error_page, page, posted_form
from service.ui.signin import UI

#: Records the audit page shows.
AUDIT_SHOWN = 200
_ACTIONS = {"pause": True, "resume": False}


def _action(request: web.Request) -> str:
    action = request.match_info["action"]
    if action not in _ACTIONS:
        raise web.HTTPNotFound()
    return action


async def confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET: what pausing (or resuming) the queue does, and the POST form that does it (nothing changes here)."""
    action = _action(request)
    require_admin(caller_of(request), action)
    queue = request.match_info["queue"]
    job_type_of(queue)  # 404 for any other name
    states = await request.config_dict[QUEUE_OPERATIONS].states()
    state = states[job_type_of(queue)]
    return "queue_action.html", {"queue": queue, "action": action, "state": state, "page": "overview"}


async def act(request: web.Request) -> web.StreamResponse:
    form = await posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    try:
        paused = _ACTIONS[_action(request)]
        await request.config_dict[QUEUE_OPERATIONS].set_paused(
            request.match_info["queue"], caller_of(request), paused=paused
        )
    except ApiError as error:
        return error_page(request, error)
    raise web.HTTPSeeOther(UI)


async def audit(request: web.Request) -> tuple[str, dict[str, Any]]:
    """The audit trail, newest first; `?action=discard` (pause, resume) shows one kind."""
    raw = request.query.get("action", "")
    action = AuditAction(raw) if raw in {each.value for each in AuditAction} else None
    with deadline(request.config_dict[SETTINGS]):
        records = await AuditTrail(request.config_dict[DATABASE].read).recent(AUDIT_SHOWN, action)
    context = {"records": records, "action": action.value if action else "", "actions": [a.value for a in AuditAction]}
    return "audit.html", context | {"page": "audit", "shown": AUDIT_SHOWN}


def setup(app: web.Application) -> None:
    app.router.add_get("/queues/{queue}/{action}", page(confirmation))
    app.router.add_post("/queues/{queue}/{action}", act)
    app.router.add_get("/audit", page(audit))
