"""Discarding dead jobs (issue 36.2): DELETE /v1/lps/jobs/{id} (admin, 409 unless DEAD), the dashboard's single and
bulk discard after a confirmation, each recorded in the audit trail; the product's price history stays."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient
from pymongo import AsyncMongoClient

from infra.audit import AUDIT
from infra.clock import utcnow
from infra.mongo import PRICE_HISTORY
from infra.settings import Settings
from tests.dashboard_pages import csrf_of, post_form, signed_in
from tests.stored_jobs import DEAD, insert_job


async def _audit_and_history(settings: Settings) -> tuple[list[dict], int]:
    mongo: AsyncMongoClient = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        database = mongo[settings.mongo_db]
        trail = [doc async for doc in database[AUDIT].find({}, {"_id": 0}).sort("at", 1)]
        return trail, await database[PRICE_HISTORY].count_documents({})
    finally:
        await mongo.close()


async def test_a_dead_job_is_discarded_with_an_audit_record_and_any_other_answers_409_or_404(
    client: TestClient, settings: Settings
):
    dead = await insert_job(settings, product_code="GONE-1", **DEAD)
    pending = await insert_job(settings, product_code="KEPT-1")
    mongo: AsyncMongoClient = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        await mongo[settings.mongo_db][PRICE_HISTORY].insert_one(
            {"product_code": "GONE-1", "searched_at": utcnow(), "price": 1000}
        )
    finally:
        await mongo.close()

    gone = await client.delete(f"/v1/lps/jobs/{dead['_id']}")
    body = await gone.json()
    assert gone.status == 200
    assert body["discarded"]["product_code"] == "GONE-1"
    assert body["discarded"]["error_type"] == "ERROR"
    assert (await client.get(f"/v1/lps/jobs/{dead['_id']}")).status == 404
    again = await client.delete(f"/v1/lps/jobs/{dead['_id']}")
    assert (again.status, (await again.json())["result"]) == (404, 1500)
    refused = await client.delete(f"/v1/lps/jobs/{pending['_id']}")
    assert (refused.status, (await refused.json())["result"]) == (409, 1504)
    assert (await client.get(f"/v1/lps/jobs/{pending['_id']}")).status == 200

    trail, prices = await _audit_and_history(settings)
    assert [(r["action"], r["job_id"], r["product_code"], r["error_type"]) for r in trail] == [
        ("discard", str(dead["_id"]), "GONE-1", "ERROR")
    ]
    assert prices == 1  # the product's price history stays


async def test_a_read_key_cannot_discard_and_an_admin_discards_all_matching_after_the_same_confirmation(
    aiohttp_client, settings: Settings
):
    doomed = [await insert_job(settings, product_code=f"BULK-{i}", **DEAD) for i in range(3)]
    other = await insert_job(settings, product_code="OTHER-1", **(DEAD | {"last_error": {"type": "BLOCKED"}}))

    viewer = await signed_in(aiohttp_client, settings, "view-c0ffee")
    assert (await viewer.delete(f"/v1/lps/jobs/{other['_id']}")).status == 433
    assert "discard-matching" not in await (await viewer.get("/ui/dead")).text()

    admin = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    dead_page = await (await admin.get("/ui/dead?error_type=ERROR")).text()
    assert 'href="/ui/dead/discard?matching=1&amp;error_type=ERROR"' in dead_page
    confirmation = await (await admin.get("/ui/dead/discard?matching=1&error_type=ERROR")).text()
    assert "<strong>3</strong> dead jobs will be discarded for good" in confirmation
    form = {"csrf": csrf_of(confirmation), "matching": "1", "error_type": "ERROR"}
    done = await (await post_form(admin, "/ui/dead/discard", data=form)).text()
    assert re.search(r"discarded: <span class=\"count\">3</span>", done), done

    left = await (await admin.get("/ui/dead")).text()
    assert "OTHER-1" in left
    assert not any(f"BULK-{i}" in left for i in range(3))
    audit = await (await admin.get("/ui/audit?action=discard")).text()
    for job in doomed:
        assert str(job["_id"]) in audit
    assert "<td>ops</td>" in audit

    # One from its own page: Discard… asks, then the job is gone.
    job_page = await (await admin.get(f"/ui/jobs/{other['_id']}")).text()
    assert f'href="/ui/jobs/{other["_id"]}/discard"' in job_page
    confirm_one = await (await admin.get(f"/ui/jobs/{other['_id']}/discard")).text()
    one = await post_form(
        admin, f"/ui/jobs/{other['_id']}/discard", data={"csrf": csrf_of(confirm_one)}, allow_redirects=False
    )
    assert (one.status, one.headers["Location"]) == (303, "/ui/dead")
    trail, _ = await _audit_and_history(settings)
    assert len([r for r in trail if r["action"] == "discard"]) == 4
