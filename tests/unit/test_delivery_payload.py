"""What the back office receives (schemas/delivery.py): real payloads load into `DeliveryPayloadSchema` with no field
it does not list, and the bytes are the ones the outbox signs."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId
from marshmallow import ValidationError

from actors.search import work_search
from infra.job_documents import new_job
from infra.settings import Settings
from infra.source_limits import Ticket
from schemas.codes import JobStatus, JobType
from schemas.delivery import DeliveryPayloadSchema, delivery_body, delivery_payload
from schemas.envelope import json_default
from schemas.offers import Delivery, Offer, SourceOutcome, SourceResult
from schemas.signature import sign, verify_signature

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


class Answering:
    """A source that answers the same every time."""

    def __init__(self, name: str, answer: SourceResult) -> None:
        self.name, self.answer = name, answer

    def held_back(self) -> None:
        return None

    async def search(self, product: dict[str, Any]) -> SourceResult:
        return self.answer


class Turns:
    """Every source's turn comes at once."""

    async def acquire(self, source: str) -> Ticket:
        return Ticket(source, "holder")

    async def release(self, ticket: Ticket, *, blocked: bool) -> None:
        pass


class Runtime:
    def __init__(self, *sources: Answering) -> None:
        self.sources = {source.name: source for source in sources}
        self.settings = Settings(search_sources=tuple(self.sources))
        self.gates = Turns()


OFFERS = [
    Offer(source="coupang", title="갤럭시 버즈3 프로 SM-R630", price=219_000, url="https://www.coupang.com/vp/1",
          product_id="1", item_id="2", vendor_item_id="3", delivery=Delivery.ROCKET, rating=4.5, review_count=120),
    Offer(source="coupang", title="갤럭시 버즈3 프로 광고", price=199_000, url="https://www.coupang.com/vp/4",
          is_ad=True),
    Offer(source="coupang", title="갤럭시 버즈3 케이스", price=9_900, url="https://www.coupang.com/vp/5"),
]  # fmt: skip


async def finished_search(*, watch_id: ObjectId | None = None) -> dict[str, Any]:
    """A SEARCH job as the store holds it when its delivery is made: recorded as the gateway records it, its result
    from the search actor itself, ended DONE."""
    product = {"keyword": "갤럭시 버즈3 프로", "model_no": "SM-R630", "target_price": 259_000, "sources": ["coupang"]}
    job = new_job(
        JobType.SEARCH, job_id=ObjectId(), product_code="SKU-1001", priority="NORMAL", max_attempts=3, now=NOW,
        message_id="m-1", product=product,
    )  # fmt: skip
    job["attempts"] = 1
    if watch_id is not None:
        job["watch_id"] = watch_id
    runtime = Runtime(Answering("coupang", SourceResult(SourceOutcome.FOUND, OFFERS)))
    output = await work_search(job, runtime)  # type: ignore[arg-type]
    del job["active"]
    return job | output | {"status": JobStatus.DONE.name, "finished_at": NOW, "updated_at": NOW}


@pytest.mark.parametrize("watched", [False, True], ids=["posted", "watch"])
async def test_a_real_delivery_payload_loads_into_the_schema_with_no_field_left_over(watched: bool):
    watch_id = ObjectId() if watched else None
    job = await finished_search(watch_id=watch_id)

    loaded = DeliveryPayloadSchema().load(json.loads(delivery_body(job)))  # RAISE: an unlisted field fails

    assert loaded["job_id"] == str(job["_id"])
    assert loaded["result"]["lowest"]["price"] == 219_000
    assert ("watch_id" in loaded) is watched


async def test_a_field_the_schema_does_not_list_is_refused():
    body = json.loads(delivery_body(await finished_search()))
    with pytest.raises(ValidationError, match="active"):
        DeliveryPayloadSchema().load(body | {"active": True})


async def test_the_body_is_the_compact_utf8_json_the_outbox_signs():
    job = await finished_search()
    body = delivery_body(job)

    # What receivers verify signatures over: compact separators, Korean as UTF-8, datetimes as ISO 8601.
    assert body == json.dumps(
        delivery_payload(job), ensure_ascii=False, separators=(",", ":"), default=json_default
    ).encode("utf-8")
    assert "갤럭시".encode() in body
    assert b'"finished_at":"2026-01-01T12:00:00+00:00"' in body
    assert verify_signature(body, "secret", sign(body, "secret"))
