"""The query catalogue's checker (tests/query_catalogue.py): MongoDB's rules for a usable index, and the hot
query table of docs/architecture.md against the declared indexes."""

from __future__ import annotations

import pytest

from infra.mongo import (
    ACTIVE_BY_STATUS,
    JOBS,
    JOBS_BY_CREATED_AT,
    JOBS_BY_STATUS_CREATED_AT,
    WATCHES,
    WATCHES_DUE,
)
from tests.query_catalogue import INDEXES, ROOT, Query, check


@pytest.mark.parametrize(
    ("query", "index"),
    [
        # Equality, then the sort, then the range: the watches' due pass.
        (Query(WATCHES, {"paused": False, "next_run_at": {"$lte": 1}}, (("next_run_at", 1),)), WATCHES_DUE),
        # A sort the index gives in reverse; an equality prefix before it.
        (Query(JOBS, {}, (("created_at", 1), ("_id", 1))), JOBS_BY_CREATED_AT),
        (Query(JOBS, {"status": "DONE"}, (("created_at", -1), ("_id", -1))), JOBS_BY_STATUS_CREATED_AT),
        # A partial index only when the query states its filter.
        (Query(JOBS, {"active": True, "status": "RUNNING", "lease_until": {"$lt": 1}}), ACTIVE_BY_STATUS),
        (Query(JOBS, {"_id": {"$in": [1, 2]}}, (), "update"), "_id_"),
        # Each branch of an $or by an index of its own.
        (
            Query(JOBS, {"$or": [{"status": "DONE", "job_type": "OUTBOX"}, {"product_code": "P"}]}, (), "aggregate"),
            "status_job_type_finished_at | product_created_at",
        ),
    ],
)
def test_a_query_with_a_usable_prefix_is_served_by_its_index(query: Query, index: str):
    assert check(query, INDEXES[query.collection]).index == index


@pytest.mark.parametrize(
    "query",
    [
        Query(JOBS, {"result.price": 5}),  # no index on the field
        Query(WATCHES, {"next_run_at": {"$lte": 1}}),  # the range skips the index's equality field
        # active_by_status (active, status, job_type, run_after) is partial on active: true, and no other index starts
        # with job_type.
        Query(JOBS, {"job_type": "SEARCH", "status": {"$ne": "DONE"}, "run_after": {"$lt": 1}}),
        Query(JOBS, {"status": "DONE"}, (("updated_at", -1),)),  # filtered by an index, sorted in memory
        Query(JOBS, {}, (("created_at", -1), ("_id", 1))),  # mixed directions no index has
        Query(JOBS, {"$or": [{"status": "DONE"}, {"result.price": 5}]}),  # one branch unindexed
    ],
)
def test_a_query_no_index_serves_is_refused(query: Query):
    verdict = check(query, INDEXES[query.collection])
    assert verdict.index is None
    assert query.collection in verdict.reason


def hot_query_rows() -> list[list[str]]:
    """docs/architecture.md's table of hot queries, cell by cell."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Hot queries and the index each one uses", 1)[1].split("\n## ", 1)[0]
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("|") and not line.startswith("|---") and not line.startswith("| query |")
    ]


def test_the_hot_query_table_names_every_declared_index_and_only_those():
    """The table's 'served by' column against the indexes ensure_indexes creates (infra.mongo.declared_indexes): each
    one is there, and each index named there exists (an index field, `_id`, or a collection's name may be named too)."""
    import re

    declared = {index.name for indexes in INDEXES.values() for index in indexes}
    fields = {name for indexes in INDEXES.values() for index in indexes for name, _ in index.keys}
    served_by = " ".join(row[-1] for row in hot_query_rows())
    named = set(re.findall(r"`([^`]+)`", served_by))
    assert declared - named == set(), "declared indexes the table does not name"
    known = declared | fields | {"_id", *INDEXES}
    unknown = {name for name in named if re.fullmatch(r"[a-z.]+_[a-z_.]+", name) and name not in known}
    assert unknown == set(), "indexes the table names that ensure_indexes does not create"
