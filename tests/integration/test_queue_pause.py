"""Pausing a job type's work: the API (admin only, audited), the overview's buttons, and a message taken
before the pause was read handed back unclaimed."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from dramatiq.middleware import Middleware
from pymongo import AsyncMongoClient

from infra.audit import AUDIT
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.harness import JobsView, sample
from tests.queue_admin import _post
from tools.testbed import eventually

KEYED = Settings.from_strings({"api_keys": "ops=k-ops,viewer=k-view:read"})


async def test_pause_and_resume_are_admin_only_recorded_once_and_404_for_other_queues(aiohttp_client, settings):
    keyed = settings.with_overrides(api_keys=KEYED.api_keys, api_key_roles=KEYED.api_key_roles)
    client = await aiohttp_client(create_app(keyed))
    status, body = await _post(client, "/v1/lps/queues/search/pause", "k-view")
    assert (status, body["result"]) == (433, 433)
    status, body = await _post(client, "/v1/lps/queues/nope/pause", "k-ops")
    assert (status, body["result"]) == (404, 1503)

    status, body = await _post(client, "/v1/lps/queues/search/pause", "k-ops")
    assert status == 200
    assert (body["paused"], body["changed"], body["changed_by"]) == (True, True, "ops")
    first_at = body["changed_at"]
    status, again = await _post(client, "/v1/lps/queues/search/pause", "k-ops")
    assert (again["changed"], again["changed_at"]) == (False, first_at)  # who paused it first is kept

    async def stats_paused() -> dict[str, Any] | None:
        stats = await (await client.get("/v1/lps/queue/stats", headers={"X-API-Key": "k-view"})).json()
        return stats["paused"] if stats["paused"]["search"]["paused"] else None

    paused = await eventually(stats_paused, within=10, what="stats to say paused")
    assert (paused["search"]["changed_by"], paused["outbox"]["paused"]) == ("ops", False)
    metrics = await (await client.get("/metrics")).text()
    assert sample(metrics, "lps_queue_paused", queue="search") == 1.0
    assert sample(metrics, "lps_queue_paused", queue="outbox") == 0.0

    status, body = await _post(client, "/v1/lps/queues/search/resume", "k-ops")
    assert (status, body["paused"], body["changed"]) == (200, False, True)

    mongo: AsyncMongoClient = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        trail = [doc async for doc in mongo[settings.mongo_db][AUDIT].find({}, {"_id": 0}).sort("at", 1)]
    finally:
        await mongo.close()
    assert [(doc["action"], doc["queue"], doc["by"]) for doc in trail] == [
        ("pause", "search", "ops"),
        ("resume", "search", "ops"),
    ]


async def test_an_admin_pauses_and_resumes_from_the_overview_after_confirming_and_the_audit_page_says_who(
    aiohttp_client, settings: Settings
):
    from tests.dashboard_pages import csrf_of, post_form, signed_in

    admin = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    overview = await (await admin.get("/ui")).text()
    assert 'href="/ui/queues/search/pause"' in overview
    confirm = await (await admin.get("/ui/queues/search/pause")).text()
    assert "stops taking messages" in confirm
    assert (await admin.get("/ui/queues/nope/pause")).status == 404
    done = await post_form(admin, "/ui/queues/search/pause", data={"csrf": csrf_of(confirm)}, allow_redirects=False)
    assert (done.status, done.headers["Location"]) == (303, "/ui")

    async def shown_paused() -> str | None:
        html = await (await admin.get("/ui/live")).text()
        return html if "PAUSED</span> by ops" in html else None

    live = await eventually(shown_paused, within=10, what="the overview to show the pause")
    assert 'href="/ui/queues/search/resume"' in live
    audit = await (await admin.get("/ui/audit")).text()
    assert re.search(r"<td>pause</td><td>ops</td>\s*<td>queue <code>search</code>", audit), audit

    viewer = await signed_in(aiohttp_client, settings, "view-c0ffee")
    assert "/ui/queues/search/resume" not in await (await viewer.get("/ui/live")).text()
    token = csrf_of(await (await viewer.get("/ui")).text())
    refused = await post_form(viewer, "/ui/queues/search/resume", data={"csrf": token}, allow_redirects=False)
    assert refused.status == 433


async def test_a_message_taken_before_the_pause_was_read_is_handed_back_unclaimed(settings: Settings, jobs: JobsView):
    """Dramatiq may hold a message its consumer took just before the pool read the pause: the status middleware
    hands it back to its queue (its ack becomes a requeue) before any claim, so no attempt is spent."""
    from actors.middleware import JobStatusMiddleware
    from actors.pausing import HAND_BACK
    from tests.harness import in_process_pool

    async with in_process_pool(settings) as pool:
        [status] = [each for each in pool.broker.middleware if isinstance(each, JobStatusMiddleware)]
        status.runtime.pauses.update(frozenset({JobType.SEARCH}))
        handed: list[dict[str, Any]] = []
        pool.broker.add_middleware(_AckWatch(handed))
        [job_id] = await pool.submit({"product_code": "HANDED-BACK", "keyword": "k"})
        await eventually(lambda: asyncio.sleep(0, handed), within=10, what="the message to be handed back")
        job = await jobs.get(job_id)
        assert job is not None
        assert (job["status"], job["attempts"], handed[0].get(HAND_BACK)) == ("PENDING", 0, True)


class _AckWatch(Middleware):
    """Records the options of each message skipped, as its consumer's ack sees them."""

    def __init__(self, seen: list[dict[str, Any]]) -> None:
        self.seen = seen

    def after_skip_message(self, broker: Any, message: Any) -> None:
        self.seen.append(dict(message.options))
