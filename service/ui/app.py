"""The dashboard's sub-application: `dashboard()` assembles its route table from the page modules, its templates and
their filters, and its static files; `setup` mounts it at /ui, with the browser's icon at the site's root.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from infra.display import utc_text
from service.ui import queues, watches
from service.ui.dead import (
    bulk_redrive,
    dead,
    discard_one,
    discard_one_confirmation,
    redrive,
    redrive_confirmation,
    redrive_one_confirmation,
)
from service.ui.jobs import job, jobs, snapshot
from service.ui.live import live
from service.ui.login import login, login_form, logout
from service.ui.overview import overview
from service.ui.pages import page
from service.ui.products import product
from service.ui.reads import duration, listing, number
from service.ui.running import running
from service.ui.signin import STATIC, UI, protect_answer


def _link(value: object) -> str:
    """Only http(s) addresses become links: a scraped `javascript:` URL must not run in an operator's browser."""
    text = str(value or "")
    return text if text.lower().startswith(("https://", "http://")) else "#"


def dashboard() -> web.Application:
    """The dashboard as a sub-application (routes relative to /ui): its routes, its templates (autoescaped), its
    static files (shipped in this package), and no page of it in a frame nor in the browser's cache (`protect_answer`:
    its signal runs for every answer under /ui, redirects, 404s and the gateway middlewares' refusals too)."""
    here = Path(__file__).parent
    app = web.Application()
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(here / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        filters={"when": utc_text, "link": _link, "number": number, "listing": listing, "duration": duration},
    )
    app.on_response_prepare.append(protect_answer)
    app.router.add_get("", page(overview))
    app.router.add_get("/jobs", page(jobs))
    app.router.add_get("/jobs/{job_id}", page(job))
    app.router.add_get("/jobs/{job_id}/redrive", page(redrive_one_confirmation))
    app.router.add_post("/jobs/{job_id}/redrive", redrive)
    app.router.add_get("/dead", page(dead))
    app.router.add_get("/jobs/{job_id}/discard", page(discard_one_confirmation))
    app.router.add_post("/jobs/{job_id}/discard", discard_one)
    app.router.add_get("/dead/{action:redrive|discard}", page(redrive_confirmation))
    app.router.add_post("/dead/{action:redrive|discard}", bulk_redrive)
    app.router.add_get("/snapshots/{snapshot_id}/{kind}", snapshot)
    app.router.add_get("/products/{product_code}", page(product))
    app.router.add_get("/running", page(running))
    watches.setup(app)
    queues.setup(app)
    app.router.add_get("/live", page(live))
    app.router.add_get("/login", login_form)
    app.router.add_post("/login", login)
    app.router.add_post("/logout", logout)
    app.router.add_static(STATIC.removeprefix(UI).rstrip("/"), here / "static")
    return app


def setup(app: web.Application) -> None:
    """Mount the dashboard at /ui, and the browser's icon at the site's root."""
    app.add_subapp(UI, dashboard())
    app.router.add_get("/favicon.ico", favicon)


async def favicon(request: web.Request) -> web.StreamResponse:
    """The browser's icon request at the site's root: the dashboard's icon, not a 404 on every page load."""
    headers = {"Content-Type": "image/x-icon", "Cache-Control": "max-age=86400"}
    return web.FileResponse(Path(__file__).parent / "static" / "favicon.ico", headers=headers)
