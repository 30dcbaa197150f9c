"""`lps mongo --data FILE` stopped and started again on the same file keeps its jobs and answers the
listing's finds and the duplicate guarantees as mongoeco's own engine does."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from mongoeco.engines.sqlite import SQLiteEngine
from pymongo import MongoClient
from pymongo.errors import DuplicateKeyError

from embedded_store.server import embedded_mongo
from infra.mongo import job_indexes, retention_index
from tests.embedded_mongo_jobs import PATIENT, answer, listing_find, served, stored_jobs
from tests.ports import free_port

# The persistent store, `lps mongo --data FILE` (issue 24): see embedded_store/sqlite.py.


def persistent_jobs(rng: random.Random) -> list[dict[str, Any]]:
    """Jobs with what LPS never stores too (arrays and other types in the unique index's field), some of them active
    searches, so that the unique index has entries and mongoeco's array probe finds arrays."""
    documents = stored_jobs(rng, 300, messy=0.3)
    for number, document in enumerate(documents):
        if number % 3 == 0:
            document["active"] = True
            document["job_type"] = "SEARCH"
            document["product_code"] = [f"ACTIVE-{number}", f"ALSO-{number}"] if number % 2 else f"ACTIVE-{number}"
    return documents


@pytest.mark.processes
def test_the_persistent_store_keeps_its_jobs_and_answers_as_mongoeco_across_a_restart(tmp_path: Path):
    rng = random.Random(24)
    documents = persistent_jobs(rng)
    finds = [listing_find(rng, documents) for _ in range(40)]
    refused = [{"product_code": "ACTIVE-3"}, {"product_code": "ALSO-3"}, {"product_code": "ACTIVE-0"}]
    accepted = [{"product_code": "ACTIVE-new"}]

    def load(url: str) -> None:
        with MongoClient(url, **PATIENT) as client:
            client.lps.jobs.create_indexes([*job_indexes(), retention_index(30)])
            client.lps.jobs.insert_many(documents)

    def answers(url: str) -> tuple[list[Any], list[bool]]:
        with MongoClient(url, **PATIENT) as client:
            jobs = client.lps.jobs
            found = [answer(jobs, find) for find in finds]
            found.append(sorted(jobs.index_information()))
            inserted = []
            for fields in [*refused, *accepted]:
                try:
                    jobs.insert_one({"job_type": "SEARCH", "active": True, **fields})
                    inserted.append(True)
                except DuplicateKeyError:
                    inserted.append(False)
            return found, inserted

    # mongoeco's own engine, in this process.
    with served(SQLiteEngine(str(tmp_path / "mongoeco.sqlite"))) as (_, url, _run):
        load(url)
        expected = answers(url)
    assert expected[1] == [False, False, False, True]

    # `lps mongo --data FILE`, stopped after the load and started again on the same file.
    data_file = str(tmp_path / "lps.sqlite")
    with embedded_mongo(free_port(), data_file=data_file) as url:
        load(url)
    with embedded_mongo(free_port(), data_file=data_file) as url:
        assert answers(url) == expected
