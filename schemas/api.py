"""Marshmallow schemas of the HTTP API: request validation and the OpenAPI document."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate

from schemas.codes import ErrorType, JobStatus, JobType, Priority
from schemas.envelope import drop_none
from schemas.offers import SourceName

PRODUCT_CODE_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"
MAX_PRODUCTS_PER_REQUEST = 1000
MAX_BODY_BYTES = 1024 * 1024
MAX_TARGET_PRICE = 10**13
#: Source names a product may ask for; the workers own their implementations.
SOURCE_NAMES = tuple(SourceName)


class BatchTooLarge(Exception):
    """More products in one request than MAX_PRODUCTS_PER_REQUEST (HTTP_INVALID_CLIENT_REQUEST)."""


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class ProductSchema(StrictSchema):
    product_code = fields.String(required=True, validate=validate.Regexp(PRODUCT_CODE_PATTERN))
    keyword = fields.String(required=True, validate=validate.Length(min=1, max=200))
    model_no = fields.String(load_default=None, validate=validate.Length(min=1, max=100))
    # Bounded: MongoDB stores 64-bit integers, and no product costs ten trillion won.
    target_price = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=MAX_TARGET_PRICE))
    sources = fields.List(
        fields.String(validate=validate.OneOf(SOURCE_NAMES)),
        load_default=None,
        validate=validate.Length(min=1, max=len(SOURCE_NAMES)),
        metadata={
            "description": "sources to search (default: all the deployment enables); only those in "
            "LPS_SEARCH_SOURCES are accepted, others are refused with 400 / result 101"
        },
    )


class SearchRequestSchema(StrictSchema):
    products = fields.List(
        fields.Nested(ProductSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_PRODUCTS_PER_REQUEST),
    )
    priority = fields.Enum(Priority, by_value=True, load_default=None)

    @pre_load
    def refuse_oversized_batch(self, data: Any, **_: Any) -> Any:
        # Checked before field validation: an oversized batch is a client error of its own kind (419).
        if isinstance(data, dict):
            products = data.get("products")
            if isinstance(products, list) and len(products) > MAX_PRODUCTS_PER_REQUEST:
                raise BatchTooLarge(f"at most {MAX_PRODUCTS_PER_REQUEST} products per request")
        return data


class EnvelopeSchema(Schema):
    result = fields.Integer(
        required=True,
        metadata={"description": "ErrorType: " + ", ".join(f"{e.name}={e.value}" for e in ErrorType)},
    )
    message = fields.String()


class ErrorResponseSchema(EnvelopeSchema):
    errors = fields.Dict(metadata={"description": "schema violations by field"})


class EnqueuedJobSchema(Schema):
    product_code = fields.String(required=True)
    job_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf([s.name for s in JobStatus]))
    duplicate = fields.Boolean(required=True)
    enqueued = fields.Boolean(
        metadata={"description": "false when the broker did not confirm; the reconciler publishes it later"}
    )


class SearchResponseSchema(EnvelopeSchema):
    jobs = fields.List(fields.Nested(EnqueuedJobSchema), required=True)


class ErrorInfoSchema(Schema):
    type = fields.String()
    message = fields.String()
    at = fields.DateTime()
    snapshot = fields.String()


class AttemptSchema(Schema):
    attempt = fields.Integer()
    worker = fields.String()
    started_at = fields.DateTime()
    finished_at = fields.DateTime()
    outcome = fields.String()
    error = fields.Nested(ErrorInfoSchema)


class JobSchema(Schema):
    """A job as the API shows it (`job_id` is the document's ObjectId as 24 hex digits)."""

    job_id = fields.String(required=True)
    job_type = fields.String(validate=validate.OneOf([t.name for t in JobType]))
    status = fields.String(validate=validate.OneOf([s.name for s in JobStatus]))
    product_code = fields.String()
    product = fields.Dict()
    priority = fields.String()
    source_job_id = fields.String()
    attempts = fields.Integer()
    max_attempts = fields.Integer()
    created_at = fields.DateTime()
    updated_at = fields.DateTime()
    enqueued_at = fields.DateTime()
    run_after = fields.DateTime()
    started_at = fields.DateTime()
    finished_at = fields.DateTime()
    lease_until = fields.DateTime()
    worker = fields.String()
    last_error = fields.Nested(ErrorInfoSchema)
    history = fields.List(fields.Nested(AttemptSchema))
    result = fields.Dict()
    delivery = fields.Dict()


#: `last_error.type` values are upper-case words (LPS's own and each source's): nothing else reaches a query.
ERROR_TYPE_PATTERN = r"^[A-Z][A-Z0-9_]{0,63}$"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: A listing cursor: milliseconds since 1970 of the last job's created_at, and its _id. At most 14 digits (before
#: year 5138), so every string of this form is a position the store can take.
JOB_CURSOR_PATTERN = r"^\d{1,14}-[0-9a-f]{24}$"


def encode_job_cursor(created_at: datetime, job_id: ObjectId) -> str:
    """The listing's position after a job: its (created_at, _id). Clients pass it back as given."""
    millis = (created_at.astimezone(UTC) - _EPOCH) // timedelta(milliseconds=1)
    return f"{millis}-{job_id}"


def decode_job_cursor(cursor: str) -> tuple[datetime, ObjectId]:
    """(created_at, _id) of a cursor made by `encode_job_cursor`; ValueError for anything else."""
    if not re.fullmatch(JOB_CURSOR_PATTERN, cursor):
        raise ValueError("not a cursor")
    millis, job_id = cursor.split("-")
    return _EPOCH + timedelta(milliseconds=int(millis)), ObjectId(job_id)


class JobCursorField(fields.String):
    """`cursor`: a `next_cursor` from an earlier page, decoded to (created_at, _id)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[datetime, ObjectId]:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return decode_job_cursor(text)
        except ValueError:
            raise ValidationError("not a cursor from this listing (use next_cursor as given)") from None


class UtcDateTimeField(fields.AwareDateTime):
    """An ISO 8601 instant (UTC when it names no offset), loaded as UTC. One that UTC would put before year 1 or
    after 9999 is the earliest or latest instant there is: as a lower bound it means "all" or "none" all the same."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            return (datetime.min if moment.year == 1 else datetime.max).replace(tzinfo=UTC)


class JobListQuerySchema(StrictSchema):
    status = fields.String(validate=validate.OneOf([s.name for s in JobStatus]))
    job_type = fields.String(validate=validate.OneOf([t.name for t in JobType]))
    product_code = fields.String(validate=validate.Regexp(PRODUCT_CODE_PATTERN))
    error_type = fields.String(
        validate=validate.Regexp(ERROR_TYPE_PATTERN),
        metadata={"description": "only jobs whose last_error.type is this (e.g. BLOCKED, DEAD_LETTER)"},
    )
    since = UtcDateTimeField(
        default_timezone=UTC,
        metadata={"description": "only jobs created at or after this time (ISO 8601; UTC when no offset is given)"},
    )
    cursor = JobCursorField(
        # The pattern is checked by the field itself (it loads the cursor as (created_at, _id)); here for the docs.
        metadata={
            "description": "next_cursor of the previous page, as given: the page after it",
            "pattern": JOB_CURSOR_PATTERN,
        },
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))


class JobListResponseSchema(EnvelopeSchema):
    jobs = fields.List(fields.Nested(JobSchema), required=True)
    next_cursor = fields.String(
        metadata={"description": "pass as `cursor` for the next page (same filters); absent on the last page"}
    )


class JobResponseSchema(EnvelopeSchema):
    job = fields.Nested(JobSchema, required=True)


class QueueInfoSchema(Schema):
    messages = fields.Integer(metadata={"description": "messages ready for a worker (not those a worker holds)"})
    consumers = fields.Integer()
    delayed = fields.Integer(
        metadata={"description": "jobs of this queue waiting for a retry's backoff (the `delayed` count)"}
    )
    dead = fields.Integer(metadata={"description": "dead letters in the queue's .XQ"})


class StatsResponseSchema(EnvelopeSchema):
    stats = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={
            "description": "PENDING / RUNNING: live; DONE / DEAD: jobs that ended so (a re-driven job counts "
            "each time it ends), up to counted_until"
        },
    )
    counted_until = fields.DateTime(metadata={"description": "DONE and DEAD include every job that ended before"})
    by_type = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)
    delayed = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "by job type: PENDING jobs whose run_after is ahead (retries waiting out their backoff), "
            "counted in MongoDB; RabbitMQ's count of a .DQ misses them, as workers hold delayed messages unacked"
        },
    )
    queues = fields.Dict(keys=fields.String(), values=fields.Nested(QueueInfoSchema))
    reconciler = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "what reconcilers did, by action"}
    )


class HealthResponseSchema(EnvelopeSchema):
    status = fields.String(metadata={"description": "`up` (liveness)"})
    checks = fields.Dict(keys=fields.String(), values=fields.String())


def job_to_api(document: dict[str, Any]) -> dict[str, Any]:
    """A stored job document in the API's shape: `_id` becomes `job_id`, ObjectIds become hex strings."""
    view = {key: value for key, value in document.items() if key not in {"_id", "active"}}
    view["job_id"] = str(document["_id"])
    if "source_job_id" in document:
        view["source_job_id"] = str(document["source_job_id"])
    return _JOB_SCHEMA.dump(view)


#: Built once: a marshmallow schema's construction costs more than the dump itself.
_JOB_SCHEMA = JobSchema()


def delivery_payload(search_job: dict[str, Any]) -> dict[str, Any]:
    """What the outbox POSTs to the back office: the finished search, without worker internals."""
    return drop_none(
        {
            "job_id": str(search_job["_id"]),
            "product_code": search_job["product_code"],
            "product": search_job.get("product"),
            "status": search_job["status"],
            "result": search_job.get("result"),
            "finished_at": search_job.get("finished_at"),
        }
    )
