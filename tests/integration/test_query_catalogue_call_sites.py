"""The query catalogue (tests/query_catalogue.py) on a real client: it fails an unindexed query naming its
call site."""

from __future__ import annotations

from pymongo import AsyncMongoClient

from infra.mongo import JOBS
from infra.settings import Settings
from tests.query_catalogue import INDEXES, ROOT, Catalogue


async def test_the_catalogue_fails_an_unindexed_query_naming_its_call_site(settings: Settings):
    """A client with its own catalogue, whose 'LPS code' is this test file: an unindexed find is recorded with this
    line; an indexed one is not."""
    catalogue = Catalogue(INDEXES, roots=(str(ROOT / "tests") + "/",))
    client: AsyncMongoClient = AsyncMongoClient(settings.mongo_url, event_listeners=[catalogue])
    try:
        jobs = client[settings.mongo_db][JOBS]
        await jobs.find({"status": "DONE"}).sort([("created_at", -1), ("_id", -1)]).limit(1).to_list()
        assert catalogue.unindexed == []
        await jobs.find({"result.price": 5}).to_list()  # the unindexed query
    finally:
        await client.close()
    [found] = catalogue.unindexed
    assert found.startswith("tests/integration/test_query_catalogue_call_sites.py:")
    assert "test_the_catalogue_fails_an_unindexed_query_naming_its_call_site" in found
    assert "no index of jobs serves result.price (equality)" in found
