"""The operator commands' gateway client (`tools.gateway_client`) against a real gateway on loopback: a DONE
search's delivery is its own OUTBOX job, never an older search's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from infra.settings import Settings
from service.app import create_app
from tests.client_commands import T0, dead_job
from tests.stored_jobs import store


async def test_a_done_searchs_delivery_is_its_own_outbox_job_not_an_older_one(aiohttp_server, settings: Settings):
    from tools.gateway_client import GatewayClient

    server = await aiohttp_server(create_app(settings))
    search = {**dead_job("D-1", T0), "status": "DONE", "finished_at": T0 + timedelta(minutes=1)}
    older_search = {**dead_job("D-1", T0 - timedelta(days=1)), "status": "DONE"}

    def outbox(source: dict[str, Any], status: str) -> dict[str, Any]:
        created = source["finished_at"] + timedelta(seconds=1)
        return {**dead_job("D-1", created), "job_type": "OUTBOX", "status": status, "source_job_id": source["_id"]}

    await store(settings, [search, older_search, outbox(older_search, "DEAD"), outbox(search, "DONE")])

    async with GatewayClient(str(server.make_url(""))) as client:
        [job] = [
            job
            for job in await client.jobs(product_code="D-1", job_type="SEARCH")
            if job["job_id"] == str(search["_id"])
        ]
        delivery = await client.delivery_of(job)
        none_for_dead = await client.delivery_of({**job, "status": "DEAD"})

    assert delivery is not None
    assert (delivery["source_job_id"], delivery["status"]) == (str(search["_id"]), "DONE")
    assert none_for_dead is None
