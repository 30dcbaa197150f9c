"""Marshmallow schemas of the HTTP API: request validation and the OpenAPI document."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate

from schemas.codes import HTTP_STATUS, AttemptOutcome, ErrorType, JobErrorType, JobStatus, JobType, Priority
from schemas.envelope import drop_none
from schemas.offers import SOURCE_ANSWERS, SOURCE_OUTCOMES, SOURCES_ANSWERED, Delivery, SearchOutcome, SourceName

#: Matched against the whole value (FullMatch): `$` alone also matches before a trailing newline. Kept in the
#: form JSON Schema (ECMA-262) reads the same way, since the OpenAPI document shows it as the field's `pattern`.
PRODUCT_CODE_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"
MAX_PRODUCTS_PER_REQUEST = 1000
MAX_BODY_BYTES = 1024 * 1024
MAX_TARGET_PRICE = 10**13
#: Source names a product may ask for; the workers own their implementations.
SOURCE_NAMES = tuple(SourceName)


def _word_boolean(metadata: dict[str, str]) -> fields.Boolean:
    """A query filter's true / false: only the words themselves, so a filter has one spelling (marshmallow's Boolean
    would also take 1, yes, on, …)."""
    return fields.Boolean(truthy={"true"}, falsy={"false"}, metadata=metadata)


def _doc(description: str) -> dict[str, str]:
    """A field's metadata: its description in the OpenAPI document."""
    return {"description": description}


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


#: ECMA-262's whitespace (its `\s`), spelled out: Python's `\s` differs (it takes U+001C..U+001F, leaves U+FEFF), so
#: a bare `\S` would let the document and the gateway disagree on what is blank. Both engines read this class alike.
ECMA_WHITESPACE = r"\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
#: Characters that show nothing by themselves: zero-width spaces and joiners, direction marks, the soft hyphen,
#: invisible operators, variation selectors, the Hangul fillers. Allowed inside text (a joiner between two
#: syllables), but a keyword of nothing else is blank as a person reads it.
INVISIBLE = (
    r"\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2060-\u2064\u206a-\u206f\u3164"
    r"\ufe00-\ufe0f\uffa0"
)
#: C0 and C1 controls (tab and line ends included), DEL, and the bidirectional embeddings, overrides and isolates
#: that make a keyword show reversed or out of order in every listing, log and delivery that prints it.
CONTROLS = r"\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"
#: Visible text: no control anywhere, and at least one character that is neither whitespace nor invisible. One
#: pattern, since the document (apispec) carries one per field.
VISIBLE_TEXT = rf"[^{CONTROLS}]*[^{CONTROLS}{ECMA_WHITESPACE}{INVISIBLE}][^{CONTROLS}]*"
_CONTROL = re.compile(rf"[{CONTROLS}]")


class VisibleText(FullMatch):
    """VISIBLE_TEXT, refused with what is wrong: a control character, or nothing visible."""

    def __init__(self) -> None:
        super().__init__(VISIBLE_TEXT)

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(
                "must not contain control characters or text direction overrides"
                if _CONTROL.search(value)
                else "must not be blank"
            )
        return value


class ProductSchema(StrictSchema):
    product_code = Text(required=True, validate=FullMatch(PRODUCT_CODE_PATTERN))
    keyword = Text(
        required=True,
        # [\s\S] rather than (?s): an inline flag is Python-only, the document's pattern must read the same in ECMA-262.
        validate=[validate.Length(min=1, max=200), VisibleText()],
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
        validate=validate.OneOf([int(e) for e in ErrorType]),
        metadata=_doc(
            "the result code (ErrorType): 0 on success; each error's code goes with one HTTP status: "
            + ", ".join(f"{e.name}={e.value} ({HTTP_STATUS[e]})" for e in ErrorType)
        ),
    )
    message = fields.String(metadata=_doc("what went wrong (or a note on a success), for a person"))


class ErrorResponseSchema(EnvelopeSchema):
    errors = fields.Dict(
        metadata=_doc(
            "INVALID_REQUEST_DATA: schema violations by field (list positions as keys), each a list of messages"
        )
    )


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
    type = fields.String(
        metadata=_doc(
            "upper-case word: LPS's own (" + ", ".join(JobErrorType) + ") or a source's outcome (BLOCKED, "
            "PARSE_FAIL, TIMEOUT, …)"
        )
    )
    message = fields.String(metadata=_doc("what went wrong, for a person (at most a few hundred characters)"))
    at = fields.DateTime(metadata=_doc("when it was recorded (UTC)"))
    snapshot = fields.String(
        metadata=_doc("`gridfs:snapshots/<id>`: the page the browser saw; `lps snapshot <id>` writes it out")
    )
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata=_doc("a search's failed sources and how each failed (BLOCKED, TIMEOUT, …), when some failed"),
    )


class AttemptSchema(Schema):
    attempt = fields.Integer(metadata=_doc("the attempt's number (1 = first; counts restart after a re-drive)"))
    worker = fields.String(metadata=_doc("the worker that ran it (host:pid:thread)"))
    started_at = fields.DateTime(metadata=_doc("when the worker claimed the job"))
    finished_at = fields.DateTime(metadata=_doc("when the attempt ended (or was found lost)"))
    outcome = fields.String(
        validate=validate.OneOf([o.value for o in AttemptOutcome if o is not AttemptOutcome.DEFERRED]),
        metadata=_doc("DONE, RETRY (PENDING again until run_after), DEAD, or LOST (its worker stopped)"),
    )
    error = fields.Nested(ErrorInfoSchema, metadata=_doc("why it failed (absent when it succeeded completely)"))


class StoredProductSchema(Schema):
    keyword = fields.String(metadata=_doc("the search keyword as posted"))
    model_no = fields.String(metadata=_doc("model number the matcher looks for in offer titles"))
    target_price = fields.Integer(metadata=_doc("the back office's price (KRW), for comparison"))
    sources = fields.List(fields.String(), metadata=_doc("sources asked for (absent: all the deployment enables)"))


class OfferSchema(Schema):
    source = fields.String(metadata=_doc("the source that listed it"))
    title = fields.String(metadata=_doc("the offer's title as the source shows it"))
    price = fields.Integer(metadata=_doc("price in KRW"))
    url = fields.String(metadata=_doc("the offer's page"))
    product_id = fields.String(metadata=_doc("the source's product id"))
    item_id = fields.String(metadata=_doc("the source's item id (Coupang)"))
    vendor_item_id = fields.String(metadata=_doc("the source's vendor item id (Coupang)"))
    delivery = fields.String(
        validate=validate.OneOf([d.value for d in Delivery]),
        metadata=_doc("the offer's shipping badge (ROCKET…, GENERAL); not the job's delivery to the back office"),
    )
    sold_out = fields.Boolean(metadata=_doc("sold out: never the lowest"))
    is_ad = fields.Boolean(metadata=_doc("a sponsored listing: never the lowest"))
    price_condition = fields.String(
        metadata=_doc(
            "the label of a conditional price (member, coupon, subscription, first purchase, app, card …) when the "
            "listing showed no price every buyer pays: never the lowest"
        )
    )
    price_from = fields.Boolean(
        metadata=_doc(
            "the price is a range's start (`12,900원~`): the cheapest option's, not necessarily the asked one's"
        )
    )
    unit_price = fields.String(metadata=_doc("unit price text as shown (e.g. `100g당 1,250원`)"))
    rating = fields.Float(metadata=_doc("average rating (0–5)"))
    review_count = fields.Integer(metadata=_doc("number of reviews"))
    rejected = fields.String(metadata=_doc("why the matcher refused it (absent: accepted), for auditing a result"))


#: A source's failed outcomes in `result.sources`, in the order the schema names them.
_SOURCE_FAILURES = [outcome for outcome in SOURCE_OUTCOMES if outcome not in SOURCE_ANSWERS]


class SourceSearchSchema(Schema):
    outcome = fields.String(
        metadata=_doc(
            f"{' or '.join(SOURCE_ANSWERS)} (answers); {', '.join(_SOURCE_FAILURES[:-1])} or {_SOURCE_FAILURES[-1]} "
            "(failures); a source that answered only in part is named by why (PARSE_FAIL for items it "
            "could not read or a list still growing, BLOCKED for a later page refused …) and is not complete"
        )
    )
    count = fields.Integer(metadata=_doc("offers the source returned (read, for a partial answer)"))
    skipped = fields.Integer(
        metadata=_doc("product items the source listed whose price or id it could not read (absent: none)")
    )
    ms = fields.Integer(metadata=_doc("milliseconds the source's search took"))
    error = fields.String(metadata=_doc("why it failed, was not tried, or answered only in part"))


class FailedSourceSchema(Schema):
    type = fields.String(metadata=_doc("the failure's type (as in last_error.type)"))
    message = fields.String(metadata=_doc("what went wrong"))


class SearchResultSchema(Schema):
    outcome = fields.String(
        validate=validate.OneOf([o.value for o in SearchOutcome]),
        metadata=_doc(
            "FOUND (an eligible offer won), NO_MATCH (every source answered, no offer is the product), "
            "NO_RESULTS (every source answered, none had offers), INCOMPLETE (a source failed for good and the "
            "others had no eligible offer)"
        ),
    )
    complete = fields.Boolean(metadata=_doc("true only when every requested source answered"))
    lowest = fields.Nested(OfferSchema, metadata=_doc("the cheapest eligible offer (absent: none)"))
    offers = fields.List(fields.Nested(OfferSchema), metadata=_doc("every offer found, cheapest first"))
    sources = fields.Dict(
        keys=fields.String(), values=fields.Nested(SourceSearchSchema), metadata=_doc("by source: how its search went")
    )
    failed_sources = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(FailedSourceSchema),
        metadata=_doc("by source: those that failed for good (absent when none did)"),
    )
    searched_at = fields.DateTime(metadata=_doc("when the result was put together (UTC)"))


class DeliverySchema(Schema):
    status = fields.String(
        validate=validate.OneOf(["delivered", "skipped"]),
        metadata=_doc("delivered, or skipped: a watch's result its `notify` did not ask for (see reason)"),
    )
    reason = fields.String(metadata=_doc("skipped: unchanged, not_below, still_below, superseded or watch_removed"))
    status_code = fields.Integer(metadata=_doc("the back office's HTTP status (2xx)"))
    ms = fields.Integer(metadata=_doc("milliseconds the delivery took"))
    delivered_at = fields.DateTime(metadata=_doc("when the back office accepted it (UTC)"))


class DeferredSchema(Schema):
    sources = fields.List(
        fields.String(), metadata=_doc("the sources whose turn did not come (none when its worker stopped)")
    )
    reason = fields.String(
        metadata=_doc(
            "why: pacing (LPS_SOURCE_RATES / _CONCURRENCY), an open circuit breaker, or its worker stopping mid-attempt"
        )
    )
    until = fields.DateTime(metadata=_doc("when the job runs again (its run_after)"))


class RedriveSchema(Schema):
    at = fields.DateTime(metadata=_doc("when an operator re-drove the job from DEAD (UTC)"))
    by = fields.String(metadata=_doc("the name of the API key that re-drove it (absent when no keys are configured)"))


#: Stored job fields the API does not show: internal bookkeeping (`_id` is shown as `job_id`; `finished_minute`, which
#: releases before `ended_by_finished_at` wrote on every ending, stays on their jobs).
HIDDEN_JOB_FIELDS = frozenset({"_id", "active", "message_id", SOURCES_ANSWERED, "finished_minute", "words"})


class JobSchema(Schema):
    """A job as the API shows it (`job_id` is the document's ObjectId as 24 hex digits)."""

    job_id = fields.String(required=True, metadata=_doc("24 hex digits"))
    job_type = fields.String(
        validate=validate.OneOf([t.name for t in JobType]),
        metadata=_doc("SEARCH (a lowest-price search) or OUTBOX (delivering a search's result to the back office)"),
    )
    status = fields.String(
        validate=validate.OneOf([s.name for s in JobStatus]),
        metadata=_doc("PENDING (waiting for a worker), RUNNING, DONE or DEAD (failed for good; can be re-driven)"),
    )
    product_code = fields.String(metadata=_doc("the back office's product code"))
    product = fields.Nested(StoredProductSchema, metadata=_doc("SEARCH: what was asked for"))
    priority = fields.String(validate=validate.OneOf([p.value for p in Priority]), metadata=_doc("HIGH, NORMAL or LOW"))
    source_job_id = fields.String(metadata=_doc("OUTBOX: the SEARCH job whose result it delivers"))
    watch_id = fields.String(metadata=_doc("SEARCH: the watch that started it (absent for a search sent by POST)"))
    attempts = fields.Integer(metadata=_doc("attempts started so far (deferrals not counted)"))
    max_attempts = fields.Integer(metadata=_doc("attempts allowed before the job is DEAD"))
    created_at = fields.DateTime(metadata=_doc("when the job was recorded (UTC)"))
    updated_at = fields.DateTime(metadata=_doc("its last change"))
    enqueued_at = fields.DateTime(metadata=_doc("when the broker confirmed its message (absent: not yet confirmed)"))
    run_after = fields.DateTime(metadata=_doc("not run before this time (a retry's backoff)"))
    started_at = fields.DateTime(metadata=_doc("when its latest attempt started"))
    finished_at = fields.DateTime(
        metadata=_doc("when it ended DONE or DEAD (a re-driven job shows its death's until it ends again)")
    )
    lease_until = fields.DateTime(metadata=_doc("RUNNING: the worker's lease; past it, the attempt counts as lost"))
    worker = fields.String(metadata=_doc("the worker of its latest attempt"))
    last_error = fields.Nested(ErrorInfoSchema, metadata=_doc("its latest failure (a DONE job may keep one)"))
    history = fields.List(
        fields.Nested(AttemptSchema), metadata=_doc("its latest attempts, oldest first (the newest 20 are kept)")
    )
    result = fields.Nested(SearchResultSchema, metadata=_doc("DONE SEARCH: what the search found"))
    delivery = fields.Nested(
        DeliverySchema, metadata=_doc("DONE OUTBOX: the back office's answer to the delivery of the result")
    )
    deferrals = fields.Integer(
        metadata={
            "description": "times the job was given back without spending an attempt: its sources' turn had not come "
            "(pacing, a circuit breaker) or its worker stopped during the attempt"
        }
    )
    deferred = fields.Nested(
        DeferredSchema, metadata=_doc("while PENDING after a deferral: its sources, why, until when")
    )
    redrives = fields.Integer(metadata=_doc("times an operator re-drove it from DEAD"))
    redriven_at = fields.DateTime(metadata=_doc("its latest re-drive"))
    redrive_history = fields.List(
        fields.Nested(RedriveSchema),
        metadata=_doc("its re-drives, oldest first (the newest 20 are kept): when, and by which API key"),
    )
    republishes = fields.Integer(metadata=_doc("times the reconciler published its message again (one was lost)"))


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


#: The job listing's page size when none is asked, and the most a page may hold.
JOB_PAGE_DEFAULT = 50
JOB_PAGE_MAX = 500


class ObjectIdField(fields.String):
    """A job id (24 hex digits), loaded as an ObjectId: nothing else reaches a query."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> ObjectId:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not re.fullmatch(r"[0-9a-f]{24}", text):
            raise ValidationError("must be a job id (24 lower-case hex digits)")
        return ObjectId(text)


#: The most words a job list's `q` may hold (the gateway splits it as the matcher splits titles).
MAX_QUERY_WORDS = 8


class JobListQuerySchema(StrictSchema):
    status = Text(validate=validate.OneOf([s.name for s in JobStatus]))
    job_type = Text(validate=validate.OneOf([t.name for t in JobType]))
    product_code = Text(validate=FullMatch(PRODUCT_CODE_PATTERN))
    product_code_prefix = Text(
        validate=FullMatch(PRODUCT_CODE_PATTERN),
        metadata=_doc("only jobs whose product_code starts with this (case-sensitive)"),
    )
    source_job_id = ObjectIdField(
        metadata={
            "description": "only the OUTBOX job delivering this SEARCH job's result",
            "pattern": "^[0-9a-f]{24}$",
        }
    )
    source = Text(
        validate=validate.OneOf(SOURCE_NAMES),
        metadata=_doc("only searches this source took part in (with source_outcome: in which it ended so)"),
    )
    source_outcome = Text(
        validate=FullMatch(ERROR_TYPE_PATTERN),
        metadata=_doc(
            "only searches in which a source (the `source` one, if given) ended so: result.sources.<source>.outcome "
            "(FOUND, NO_RESULTS, BLOCKED, TIMEOUT, …)"
        ),
    )
    error_type = Text(
        validate=FullMatch(ERROR_TYPE_PATTERN),
        metadata={"description": "only jobs whose last_error.type is this (e.g. BLOCKED, DEAD_LETTER)"},
    )
    delayed = _word_boolean(
        _doc(
            "true: only PENDING jobs whose run_after is still ahead (retries waiting out their backoff, searches "
            "deferred for a source's turn: the `delayed` count of the stats); false: only PENDING jobs whose "
            "run_after has come (due, waiting for a worker). Any status but PENDING matches nothing"
        ),
    )
    republished = _word_boolean(
        _doc(
            "true: only jobs the reconciler published again at least once (`republishes`: their message was never "
            "confirmed or was lost); false: only jobs it never did. Read on the way, as error_type is"
        ),
    )
    q = Text(
        validate=validate.Length(min=1, max=200),
        metadata=_doc(
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


class JobResponseSchema(EnvelopeSchema):
    job = fields.Nested(JobSchema, required=True)


class QueueInfoSchema(Schema):
    messages = fields.Integer(metadata={"description": "messages ready for a worker (not those a worker holds)"})
    consumers = fields.Integer()
    delayed = fields.Integer(
        metadata={"description": "jobs of this queue waiting for a retry's backoff (the `delayed` count)"}
    )
    dead = fields.Integer(metadata={"description": "dead letters in the queue's .XQ"})


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


class PauseStateSchema(Schema):
    paused = fields.Boolean(required=True, metadata={"description": "whether this job type's pools take messages"})
    changed_by = fields.String(metadata={"description": "the API key's name that paused (or resumed) it last"})
    changed_at = fields.DateTime(metadata={"description": "when it was paused (or resumed) last"})


class QueuePauseResponseSchema(EnvelopeSchema):
    queue = fields.String(required=True, metadata={"description": "search or outbox"})
    paused = fields.Boolean(required=True)
    changed_by = fields.String()
    changed_at = fields.DateTime()
    changed = fields.Boolean(
        required=True, metadata={"description": "false when it already was so (nothing recorded, who and when kept)"}
    )


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
    pace = fields.Float(
        metadata={
            "description": "the share of `rate` searched at now (1: all of it; halved fleet-wide by a BLOCKED search, "
            "climbing back over LPS_PACE_RECOVERY); absent when LPS_PACE_RECOVERY=0"
        }
    )
    concurrency = fields.Integer(metadata={"description": "LPS_SOURCE_CONCURRENCY for this source"})
    in_flight = fields.Integer(metadata={"description": "searches holding a concurrency slot"})
    waiting = fields.Integer(metadata={"description": "searches waiting now for a turn (LPS_SOURCE_WAIT at most)"})
    deferred_jobs = fields.Integer(metadata={"description": "PENDING jobs deferred until this source's turn"})
    breaker = fields.Nested(BreakerStatsSchema)


class ProxyStatsSchema(Schema):
    outcomes = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "searches through this proxy, fleet-wide, by outcome: answered (the shop answered), "
            "blocked, unreachable (the proxy refused or failed the request), failed (a timeout, a crash)"
        },
    )
    benched = fields.Integer(metadata={"description": "times a worker benched it (LPS_COUPANG_PROXY_COOLDOWN)"})
    benched_now = fields.Boolean(metadata={"description": "its latest bench has not ended"})
    benched_until = fields.DateTime(allow_none=True, metadata={"description": "the end of its latest bench"})
    last_outcome = fields.String(allow_none=True)
    last_at = fields.DateTime(allow_none=True, metadata={"description": "when its latest search ended"})


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
    computed_at = fields.DateTime(
        metadata={
            "description": "when these figures were computed: an answer is reused for LPS_STATS_MAX_AGE seconds and, "
            "while the next one is computed, served up to LPS_STATS_MAX_STALE seconds old"
        }
    )
    by_type = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)
    paused = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PauseStateSchema),
        metadata={"description": "by queue (search, outbox): whether its work is paused, who paused it and when"},
    )
    delayed = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "by job type: PENDING jobs whose run_after is ahead (retries waiting out their backoff), "
            "counted in MongoDB; RabbitMQ's count of a .DQ misses them, as workers hold delayed messages unacked"
        },
    )
    queue_type = fields.String(
        validate=validate.OneOf(["classic", "quorum"]),
        metadata={
            "description": "LPS_QUEUE_TYPE: classic (one priority queue per job type) or quorum (replicated, one "
            "queue per priority band, counted together in `queues`)"
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
    proxies = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(ProxyStatsSchema),
        metadata={"description": "with LPS_COUPANG_PROXIES: each proxy (scheme://host:port, no credentials)"},
    )


class HealthResponseSchema(EnvelopeSchema):
    status = fields.String(metadata={"description": "`up` (liveness)"})
    checks = fields.Dict(keys=fields.String(), values=fields.String())
    queue_type = fields.String(
        metadata={
            "description": "readiness: LPS_QUEUE_TYPE, classic or quorum (with several nodes in LPS_AMQP_URL, "
            "any that answers makes RabbitMQ ok)"
        }
    )


def job_to_api(document: dict[str, Any]) -> dict[str, Any]:
    """A stored job document in the API's shape: `_id` becomes `job_id`, ObjectIds become hex strings, internal
    fields are left out; datetimes are written as ISO 8601 by the answer's encoder (schemas.envelope.json_default).

    Not a marshmallow dump of JobSchema: on a page of 500 searches with their offers that costs the event loop
    tens of milliseconds, and it would silently drop a stored field the schema lacks. JobSchema documents the
    result instead, and tests/test_openapi.py checks real jobs against it with no field allowed beyond it.
    """
    view = {key: value for key, value in document.items() if key not in HIDDEN_JOB_FIELDS}
    view["job_id"] = str(document["_id"])
    for reference in ("source_job_id", "watch_id"):
        if reference in document:
            view[reference] = str(document[reference])
    return view


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
