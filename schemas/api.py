"""Marshmallow schemas of the HTTP API: request validation and the OpenAPI document."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate

from schemas.codes import ErrorType, JobStatus, JobType, Priority
from schemas.envelope import drop_none
from schemas.offers import SourceName

#: Matched against the whole value (FullMatch): `$` alone also matches before a trailing newline. Kept in the
#: form JSON Schema (ECMA-262) reads the same way, since the OpenAPI document shows it as the field's `pattern`.
PRODUCT_CODE_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"
MAX_PRODUCTS_PER_REQUEST = 1000
MAX_BODY_BYTES = 1024 * 1024
MAX_TARGET_PRICE = 10**13
#: Source names a product may ask for; the workers own their implementations.
SOURCE_NAMES = tuple(SourceName)


class BatchTooLarge(Exception):
    """More products in one request than MAX_PRODUCTS_PER_REQUEST (HTTP_INVALID_CLIENT_REQUEST)."""


NOT_TEXT = "Not valid Unicode text: contains a lone surrogate."


def is_text(value: str) -> bool:
    """True unless `value` holds a lone surrogate (U+D800..U+DFFF), which neither UTF-8 nor BSON can carry.

    JSON lets a client write one as an escape (`"\\ud800"`); the decoder then hands it over as a str.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(value: str) -> str:
    """`value` with its lone surrogates written as `\\udXXX` escapes: safe to echo in an answer or a log."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


class FullMatch(validate.Regexp):
    """Regexp that must match the whole value (marshmallow's uses re.match, where `$` lets "AB\\n" through).

    Its error names the pattern, so a client sees what is expected.
    """

    default_message = "must match {regex}"

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


class Text(fields.String):
    """A string that is Unicode text: a lone surrogate is refused by field (it would fail later, in BSON)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not is_text(text):
            raise ValidationError(NOT_TEXT)
        return text


class StrictSchema(Schema):
    """Request schemas: unknown fields are refused, and so are field names that are not Unicode text."""

    class Meta:
        unknown = RAISE

    @pre_load
    def refuse_names_that_are_not_text(self, data: Any, **_: Any) -> Any:
        # Named by their escaped spelling: the name itself cannot be written in a UTF-8 answer.
        if isinstance(data, dict) and (bad := [key for key in data if isinstance(key, str) and not is_text(key)]):
            raise ValidationError({printable(key): [NOT_TEXT] for key in bad})
        return data


class ProductSchema(StrictSchema):
    product_code = Text(required=True, validate=FullMatch(PRODUCT_CODE_PATTERN))
    keyword = Text(
        required=True,
        # [\s\S] rather than (?s): an inline flag is Python-only, the document's pattern must read the same in ECMA-262.
        validate=[validate.Length(min=1, max=200), FullMatch(r"[\s\S]*\S[\s\S]*", error="must not be blank")],
        metadata={"example": "아이폰 15 128GB"},
    )
    model_no = Text(load_default=None, validate=validate.Length(min=1, max=100))
    # Bounded: MongoDB stores 64-bit integers, and no product costs ten trillion won.
    target_price = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=MAX_TARGET_PRICE))
    sources = fields.List(
        Text(validate=validate.OneOf(SOURCE_NAMES)),
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
    keyword_ignored = fields.Boolean(
        metadata={
            "description": "true when this product's keyword was not used: the product already had an active "
            "search with another keyword (that job is answered), or its code came earlier in the request"
        }
    )
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
    deferrals = fields.Integer(
        metadata={
            "description": "times the job waited for its sources' turn (pacing, a circuit breaker): never "
            "counted as attempts"
        }
    )
    deferred = fields.Dict(metadata={"description": "while PENDING after a deferral: its sources, why, until when"})


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
    status = Text(validate=validate.OneOf([s.name for s in JobStatus]))
    job_type = Text(validate=validate.OneOf([t.name for t in JobType]))
    product_code = Text(validate=FullMatch(PRODUCT_CODE_PATTERN))
    error_type = Text(
        validate=FullMatch(ERROR_TYPE_PATTERN),
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


class BreakerStatsSchema(Schema):
    state = fields.String(metadata={"description": "CLOSED, OPEN (searches deferred) or HALF_OPEN (a probe decides)"})
    open_until = fields.DateTime(metadata={"description": "while OPEN: when a probe may run"})
    blocked = fields.Integer(metadata={"description": "BLOCKED searches among the source's last `window`"})
    trips_at = fields.Integer(metadata={"description": "BLOCKED searches in the window that open it"})
    window = fields.Integer(metadata={"description": "LPS_BREAKER_WINDOW"})
    trips = fields.Integer(metadata={"description": "times it opened"})
    consecutive_trips = fields.Integer(metadata={"description": "trips since a probe last closed it"})
    changed_at = fields.DateTime()


class SourceStatsSchema(Schema):
    rate = fields.String(metadata={"description": "LPS_SOURCE_RATES for this source (absent: not paced)"})
    tokens_used = fields.Integer(metadata={"description": "searches started in the rate's current window"})
    tokens_left = fields.Integer()
    concurrency = fields.Integer(metadata={"description": "LPS_SOURCE_CONCURRENCY for this source"})
    in_flight = fields.Integer(metadata={"description": "searches holding a concurrency slot"})
    waiting = fields.Integer(metadata={"description": "searches waiting now for a turn (LPS_SOURCE_WAIT at most)"})
    deferred_jobs = fields.Integer(metadata={"description": "PENDING jobs deferred until this source's turn"})
    breaker = fields.Nested(BreakerStatsSchema)


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
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(SourceStatsSchema),
        metadata={"description": "each source's fleet-wide pacing and circuit breaker"},
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
            "watch_id": str(search_job["watch_id"]) if "watch_id" in search_job else None,
            "status": search_job["status"],
            "result": search_job.get("result"),
            "finished_at": search_job.get("finished_at"),
        }
    )
