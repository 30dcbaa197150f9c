"""The overview's live part: counts, queues, repairs and the last hour's charts, re-rendered every few seconds.

The charts are drawn from the answer of `GET /v1/lps/queue/timeline` (`read_timeline`, the same function), as
SVG on the server; static/refresh.js fetches this part again (`/ui/live`) while the tab is visible.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from markupsafe import Markup

from schemas.codes import ENDED_STATUSES, JobErrorType, JobType
from service.keys import SETTINGS, STATS
from service.timeline import TIMELINE, read_timeline
from service.ui.charts import minute_bars, minute_lines

#: Seconds between two refreshes of the live part (static/refresh.js reads it from the page).
REFRESH_SECONDS = 5

#: The jobs each reconciler repair leaves behind, where a filter finds them (its count links there). A republished
#: job counts its republishes, not why: both kinds lead to every job published again. Not linked, as nothing finds
#: them: the deliveries it created (an OUTBOX job carries no mark of who made it: that count leads to every OUTBOX
#: job), dead letters kept in `dead_letters` (no job) and those of jobs that had already ended (their job unchanged).
REPAIR_LINKS = {
    "republished_unconfirmed": "/ui/jobs?republished=true",
    "republished_lost": "/ui/jobs?republished=true",
    "recovered": f"/ui/jobs?error_type={JobErrorType.WORKER_LOST}",
    "recovered_dead": f"/ui/dead?error_type={JobErrorType.ATTEMPTS_EXHAUSTED}",
    "dead_lettered": f"/ui/dead?error_type={JobErrorType.DEAD_LETTER}",
    "outbox_created": f"/ui/jobs?job_type={JobType.OUTBOX.name}",
}


def timeline_charts(timeline: dict[str, Any]) -> list[tuple[str, Markup]]:
    """(title, SVG) of each chart: jobs ended per minute by type, each source's outcomes, attempt durations."""
    minutes = timeline["timeline"]
    at = [minute["at"] for minute in minutes]
    charts = []
    for job_type in JobType:
        ended = [minute["ended"][job_type.name] for minute in minutes]
        stacks = {status.name: [counts[status.name] for counts in ended] for status in ENDED_STATUSES}
        charts.append((f"{job_type.name} jobs ended", minute_bars(at, stacks, label=f"{job_type.name} jobs ended")))
    for source in sorted({source for minute in minutes for source in minute["sources"]}):
        outcomes = [minute["sources"].get(source, {}) for minute in minutes]
        names = sorted({name for counts in outcomes for name in counts})
        stacks = {name: [counts.get(name, 0) for counts in outcomes] for name in names}
        charts.append((f"{source}: search outcomes", minute_bars(at, stacks, label=f"{source} search outcomes")))
    for job_type in JobType:
        durations = [minute["attempt_ms"].get(job_type.name) or {} for minute in minutes]
        if any(durations):
            lines = {share: [each.get(share) for each in durations] for share in ("p50", "p95")}
            title = f"{job_type.name}: the attempt that ended a job (ms)"
            charts.append((title, minute_lines(at, lines, label=title)))
    return charts


async def live_context(request: web.Request) -> dict[str, Any]:
    # The query (?minutes=) is checked here, before any read.
    timeline = await read_timeline(request.config_dict[TIMELINE], request.config_dict[SETTINGS], request.query)
    query = request.query_string
    return {
        "live_url": f"/ui/live?{query}" if query else "/ui/live",
        "stats": await request.config_dict[STATS].get(),
        "charts": timeline_charts(timeline),
        "timeline": timeline,
        "refresh_seconds": REFRESH_SECONDS,
        "repair_links": REPAIR_LINKS,
        "page": "overview",
    }


async def live(request: web.Request) -> tuple[str, dict[str, Any]]:
    """The live part alone (what refresh.js swaps in)."""
    return "overview_live.html", await live_context(request)
