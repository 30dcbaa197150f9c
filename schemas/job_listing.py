"""Listing jobs and acting on a listing's page: the filters of `GET /v1/lps/jobs` (and of the bulk re-drive), the
cursor a page goes on from, and the responses of the listing, the bulk re-drive and discarding."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from marshmallow import Schema, ValidationError, fields, validate

from schemas.codes import JobStatus, JobType
from schemas.envelope import EnvelopeSchema
from schemas.jobs import JobSchema
from schemas.search_request import PRODUCT_CODE_PATTERN, SOURCE_NAMES
from schemas.validation import FullMatch, ObjectIdField, StrictSchema, Text, UtcDateTimeField, doc, word_boolean

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


#: The job listing's page size when none is asked, and the most a page may hold.
JOB_PAGE_DEFAULT = 50


JOB_PAGE_MAX = 500


#: The most words a job list's `q` may hold (the gateway splits it as the matcher splits titles).
MAX_QUERY_WORDS = 8


class JobListQuerySchema(StrictSchema):
    status = Text(validate=validate.OneOf([s.name for s in JobStatus]))
    job_type = Text(validate=validate.OneOf([t.name for t in JobType]))
    product_code = Text(validate=FullMatch(PRODUCT_CODE_PATTERN))
    product_code_prefix = Text(
        validate=FullMatch(PRODUCT_CODE_PATTERN),
        metadata=doc("only jobs whose product_code starts with this (case-sensitive)"),
    )
    source_job_id = ObjectIdField(
        metadata={
            "description": "only the OUTBOX job delivering this SEARCH job's result",
            "pattern": "^[0-9a-f]{24}$",
        }
    )
    source = Text(
        validate=validate.OneOf(SOURCE_NAMES),
        metadata=doc("only searches this source took part in (with source_outcome: in which it ended so)"),
    )
    source_outcome = Text(
        validate=FullMatch(ERROR_TYPE_PATTERN),
        metadata=doc(
            "only searches in which a source (the `source` one, if given) ended so: result.sources.<source>.outcome "
            "(FOUND, NO_RESULTS, BLOCKED, TIMEOUT, …)"
        ),
    )
    error_type = Text(
        validate=FullMatch(ERROR_TYPE_PATTERN),
        metadata={"description": "only jobs whose last_error.type is this (e.g. BLOCKED, DEAD_LETTER)"},
    )
    delayed = word_boolean(
        doc(
            "true: only PENDING jobs whose run_after is still ahead (retries waiting out their backoff, searches "
            "deferred for a source's turn: the `delayed` count of the stats); false: only PENDING jobs whose "
            "run_after has come (due, waiting for a worker). Any status but PENDING matches nothing"
        ),
    )
    republished = word_boolean(
        doc(
            "true: only jobs the reconciler published again at least once (`republishes`: their message was never "
            "confirmed or was lost); false: only jobs it never did. Read on the way, as error_type is"
        ),
    )
    q = Text(
        validate=validate.Length(min=1, max=200),
        metadata=doc(
            "words of the keyword or model number, in any order, split as the matcher splits titles "
            '("버즈3 갤럭시" finds "갤럭시버즈3 케이스"; a model number with or without its dashes): only SEARCH jobs '
            f"having every word (the words_created_at index). 1 to {MAX_QUERY_WORDS} such words (letters or digits): a "
            "q with none, or more, is refused (101)"
        ),
    )
    since = UtcDateTimeField(
        default_timezone=UTC,
        metadata={"description": "only jobs created at or after this time (ISO 8601; UTC when no offset is given)"},
    )
    until = UtcDateTimeField(
        default_timezone=UTC,
        metadata={"description": "only jobs created before this time (ISO 8601; UTC when no offset is given)"},
    )
    cursor = JobCursorField(
        # The pattern is checked by the field itself (it loads the cursor as (created_at, _id)); here for the docs.
        metadata={
            "description": "next_cursor of the previous page, as given: the page after it",
            "pattern": JOB_CURSOR_PATTERN,
        },
    )
    limit = fields.Integer(load_default=JOB_PAGE_DEFAULT, validate=validate.Range(min=1, max=JOB_PAGE_MAX))


class JobListResponseSchema(EnvelopeSchema):
    jobs = fields.List(fields.Nested(JobSchema), required=True)
    next_cursor = fields.String(
        metadata={
            "description": "pass as `cursor` for the next page (same filters); absent on the last page. With job_type "
            "(unless beside delayed or source_job_id, which read it from their index), error_type, source, "
            "source_outcome or republished (read on the way, not through an index) a page reads at most 2,000 jobs: it "
            "may then hold fewer than `limit`, or none, and still have a next_cursor"
        }
    )


class DeadJobsQuerySchema(JobListQuerySchema):
    """The job listing's filters, `limit` and `cursor`, for the DEAD jobs only (a status is not asked: it is DEAD)."""

    class Meta:
        exclude = ("status",)


class RefusalSchema(Schema):
    result = fields.Integer(required=True, metadata={"description": "the result code the one-job re-drive answers"})
    message = fields.String(required=True)


class RedriveOutcomeSchema(Schema):
    job_id = fields.String(required=True)
    product_code = fields.String(required=True)
    error_type = fields.String(metadata={"description": "its last_error.type when it was DEAD"})
    redriven = fields.Boolean(required=True, metadata={"description": "PENDING again, with fresh attempts"})
    refused = fields.Nested(RefusalSchema, metadata={"description": "why not (it stays as it is)"})


class RedrivePageResponseSchema(EnvelopeSchema):
    jobs = fields.List(fields.Nested(RedriveOutcomeSchema), required=True)
    next_cursor = fields.String(
        metadata={"description": "pass as `cursor` for the next page (same filters); absent on the last page"}
    )


class DiscardedJobSchema(Schema):
    job_id = fields.String(required=True)
    job_type = fields.String()
    product_code = fields.String()
    error_type = fields.String(metadata={"description": "its last_error.type"})
    attempts = fields.Integer()
    finished_at = fields.DateTime(metadata={"description": "when it died"})
    by = fields.String(metadata={"description": "the API key's name that discarded it (absent without keys)"})
    at = fields.DateTime(required=True, metadata={"description": "when it was discarded"})


class DiscardResponseSchema(EnvelopeSchema):
    discarded = fields.Nested(
        DiscardedJobSchema, required=True, metadata={"description": "what the audit trail keeps of the job"}
    )
