"""What the back office receives: the body the outbox POSTs to LPS_OUTBOX_URL for each finished search.

The outbox pool (actors/outbox.py) sends `delivery_body(search_job)`: compact UTF-8 JSON of `delivery_payload`, with
`Content-Type: application/json`, `Idempotency-Key` (the delivery's OUTBOX job id: the same for every retry of one
delivery) and `X-LPS-Signature` over these exact bytes (schemas/signature.py). `DeliveryPayloadSchema` is that
body's contract, field by field; tests/unit/test_delivery_payload.py loads real payloads with it, refusing any field it
does not list. A watch's search is delivered only when its `notify` asks for it (infra/notify.py).
"""

from __future__ import annotations

import json
from typing import Any

from marshmallow import Schema, fields, validate

from schemas.codes import JobStatus
from schemas.envelope import drop_none, json_default
from schemas.jobs import SearchResultSchema, StoredProductSchema
from schemas.validation import doc

__all__ = ["DeliveryPayloadSchema", "delivery_body", "delivery_payload"]


class DeliveryPayloadSchema(Schema):
    """The body of a delivery (datetimes as ISO 8601 with their UTC offset; fields without a value are left out)."""

    job_id = fields.String(
        required=True, validate=validate.Regexp(r"^[0-9a-f]{24}$"), metadata=doc("the SEARCH job's id")
    )
    product_code = fields.String(required=True, metadata=doc("the back office's product code, as posted"))
    product = fields.Nested(StoredProductSchema, metadata=doc("what was asked for: keyword, model_no, ..."))
    watch_id = fields.String(
        validate=validate.Regexp(r"^[0-9a-f]{24}$"),
        metadata=doc("the watch that started the search (absent for a search sent by POST /v1/lps/search)"),
    )
    status = fields.String(
        required=True, validate=validate.OneOf([JobStatus.DONE.name]), metadata=doc("DONE: only ended searches")
    )
    result = fields.Nested(
        SearchResultSchema,
        metadata=doc("what the search found: the lowest offer, every offer, how each source's search went"),
    )
    finished_at = fields.AwareDateTime(metadata=doc("when the search ended (UTC)"))


def delivery_payload(search_job: dict[str, Any]) -> dict[str, Any]:
    """What the outbox POSTs to the back office: the finished search, without worker internals."""
    return drop_none(
        {
            "job_id": str(search_job["_id"]),
            "product_code": search_job["product_code"],
            "product": search_job.get("product"),
            "watch_id": str(search_job["watch_id"]) if "watch_id" in search_job else None,
            "status": search_job["status"],
            "result": search_job.get("result"),
            "finished_at": search_job.get("finished_at"),
        }
    )


def delivery_body(search_job: dict[str, Any]) -> bytes:
    """The exact bytes the outbox POSTs (and signs) for a finished search job."""
    return json.dumps(
        delivery_payload(search_job), ensure_ascii=False, separators=(",", ":"), default=json_default
    ).encode()
