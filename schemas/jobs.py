"""A job as the API shows it: its product, attempts, result with every offer's verdict, delivery and re-drives
(`JobSchema`), and `job_to_api`, which turns a stored job document into that shape."""

from typing import Any

from marshmallow import Schema, fields, validate

from schemas.codes import AttemptOutcome, JobErrorType, JobStatus, JobType, Priority
from schemas.envelope import EnvelopeSchema
from schemas.offers import SOURCE_ANSWERS, SOURCE_OUTCOMES, SOURCES_ANSWERED, Delivery, SearchOutcome
from schemas.validation import doc


class ErrorInfoSchema(Schema):
    type = fields.String(
        metadata=doc(
            "upper-case word: LPS's own (" + ", ".join(JobErrorType) + ") or a source's outcome (BLOCKED, "
            "PARSE_FAIL, TIMEOUT, …)"
        )
    )
    message = fields.String(metadata=doc("what went wrong, for a person (at most a few hundred characters)"))
    at = fields.DateTime(metadata=doc("when it was recorded (UTC)"))
    snapshot = fields.String(
        metadata=doc("`gridfs:snapshots/<id>`: the page the browser saw; `lps snapshot <id>` writes it out")
    )
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata=doc("a search's failed sources and how each failed (BLOCKED, TIMEOUT, …), when some failed"),
    )


class AttemptSchema(Schema):
    attempt = fields.Integer(metadata=doc("the attempt's number (1 = first; counts restart after a re-drive)"))
    worker = fields.String(metadata=doc("the worker that ran it (host:pid:thread)"))
    started_at = fields.DateTime(metadata=doc("when the worker claimed the job"))
    finished_at = fields.DateTime(metadata=doc("when the attempt ended (or was found lost)"))
    outcome = fields.String(
        validate=validate.OneOf([o.value for o in AttemptOutcome if o is not AttemptOutcome.DEFERRED]),
        metadata=doc("DONE, RETRY (PENDING again until run_after), DEAD, or LOST (its worker stopped)"),
    )
    error = fields.Nested(ErrorInfoSchema, metadata=doc("why it failed (absent when it succeeded completely)"))


class StoredProductSchema(Schema):
    keyword = fields.String(metadata=doc("the search keyword as posted"))
    model_no = fields.String(metadata=doc("model number the matcher looks for in offer titles"))
    target_price = fields.Integer(metadata=doc("the back office's price (KRW), for comparison"))
    sources = fields.List(fields.String(), metadata=doc("sources asked for (absent: all the deployment enables)"))


class OfferSchema(Schema):
    source = fields.String(metadata=doc("the source that listed it"))
    title = fields.String(metadata=doc("the offer's title as the source shows it"))
    price = fields.Integer(metadata=doc("price in KRW"))
    url = fields.String(metadata=doc("the offer's page"))
    product_id = fields.String(metadata=doc("the source's product id"))
    item_id = fields.String(metadata=doc("the source's item id (Coupang)"))
    vendor_item_id = fields.String(metadata=doc("the source's vendor item id (Coupang)"))
    delivery = fields.String(
        validate=validate.OneOf([d.value for d in Delivery]),
        metadata=doc("the offer's shipping badge (ROCKET…, GENERAL); not the job's delivery to the back office"),
    )
    sold_out = fields.Boolean(metadata=doc("sold out: never the lowest"))
    is_ad = fields.Boolean(metadata=doc("a sponsored listing: never the lowest"))
    price_condition = fields.String(
        metadata=doc(
            "the label of a conditional price (member, coupon, subscription, first purchase, app, card …) when the "
            "listing showed no price every buyer pays: never the lowest"
        )
    )
    price_from = fields.Boolean(
        metadata=doc(
            "the price is a range's start (`12,900원~`): the cheapest option's, not necessarily the asked one's"
        )
    )
    unit_price = fields.String(metadata=doc("unit price text as shown (e.g. `100g당 1,250원`)"))
    category = fields.String(
        metadata=doc("where the source files it, levels joined by ` > ` (Naver's category1–4); absent on Coupang")
    )
    brand = fields.String(
        metadata=doc("the brand the source names beside the title (Naver's brand); absent on Coupang")
    )
    maker = fields.String(
        metadata=doc("the maker the source names beside the title (Naver's maker); absent on Coupang")
    )
    rating = fields.Float(metadata=doc("average rating (0–5)"))
    review_count = fields.Integer(metadata=doc("number of reviews"))
    rejected = fields.String(metadata=doc("why the matcher refused it (absent: accepted), for auditing a result"))


#: A source's failed outcomes in `result.sources`, in the order the schema names them.
_SOURCE_FAILURES = [outcome for outcome in SOURCE_OUTCOMES if outcome not in SOURCE_ANSWERS]


class SourceSearchSchema(Schema):
    outcome = fields.String(
        metadata=doc(
            f"{' or '.join(SOURCE_ANSWERS)} (answers); {', '.join(_SOURCE_FAILURES[:-1])} or {_SOURCE_FAILURES[-1]} "
            "(failures); a source that answered only in part is named by why (PARSE_FAIL for items it "
            "could not read or a list still growing, BLOCKED for a later page refused …) and is not complete"
        )
    )
    count = fields.Integer(metadata=doc("offers the source returned (read, for a partial answer)"))
    skipped = fields.Integer(
        metadata=doc("product items the source listed whose price or id it could not read (absent: none)")
    )
    ms = fields.Integer(metadata=doc("milliseconds the source's search took"))
    error = fields.String(metadata=doc("why it failed, was not tried, or answered only in part"))


class FailedSourceSchema(Schema):
    type = fields.String(metadata=doc("the failure's type (as in last_error.type)"))
    message = fields.String(metadata=doc("what went wrong"))


class SearchResultSchema(Schema):
    outcome = fields.String(
        validate=validate.OneOf([o.value for o in SearchOutcome]),
        metadata=doc(
            "FOUND (an eligible offer won), NO_MATCH (every source answered, no offer is the product), "
            "NO_RESULTS (every source answered, none had offers), INCOMPLETE (a source failed for good and the "
            "others had no eligible offer)"
        ),
    )
    complete = fields.Boolean(metadata=doc("true only when every requested source answered"))
    lowest = fields.Nested(OfferSchema, metadata=doc("the cheapest eligible offer (absent: none)"))
    doubts = fields.List(
        fields.String(),
        metadata=doc(
            "what leaves the lowest in doubt, for a person to look at before acting on it (absent: nothing does): "
            "'priced far under the others: the lowest, 12,900, is 36% of the 34,900 most offers ask' (a bait "
            "listing, a look-alike or a part would be priced so; so may a genuine deal). The lowest is still the "
            "cheapest offer the matcher accepted"
        ),
    )
    offers = fields.List(fields.Nested(OfferSchema), metadata=doc("every offer found, cheapest first"))
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(SourceSearchSchema),
        metadata=doc("by source: how its search went"),
    )
    failed_sources = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(FailedSourceSchema),
        metadata=doc("by source: those that failed for good (absent when none did)"),
    )
    searched_at = fields.DateTime(metadata=doc("when the result was put together (UTC)"))


class DeliverySchema(Schema):
    status = fields.String(
        validate=validate.OneOf(["delivered", "skipped"]),
        metadata=doc("delivered, or skipped: a watch's result its `notify` did not ask for (see reason)"),
    )
    reason = fields.String(metadata=doc("skipped: unchanged, not_below, still_below, superseded or watch_removed"))
    status_code = fields.Integer(metadata=doc("the back office's HTTP status (2xx)"))
    ms = fields.Integer(metadata=doc("milliseconds the delivery took"))
    delivered_at = fields.DateTime(metadata=doc("when the back office accepted it (UTC)"))


class DeferredSchema(Schema):
    sources = fields.List(
        fields.String(), metadata=doc("the sources whose turn did not come (none when its worker stopped)")
    )
    reason = fields.String(
        metadata=doc(
            "why: pacing (LPS_SOURCE_RATES / _CONCURRENCY), an open circuit breaker, or its worker stopping mid-attempt"
        )
    )
    until = fields.DateTime(metadata=doc("when the job runs again (its run_after)"))


class RedriveSchema(Schema):
    at = fields.DateTime(metadata=doc("when an operator re-drove the job from DEAD (UTC)"))
    by = fields.String(metadata=doc("the name of the API key that re-drove it (absent when no keys are configured)"))


#: Stored job fields the API does not show: internal bookkeeping (`_id` is shown as `job_id`; `finished_minute`, which
#: releases before `ended_by_finished_at` wrote on every ending, stays on their jobs).
HIDDEN_JOB_FIELDS = frozenset({"_id", "active", "message_id", SOURCES_ANSWERED, "finished_minute", "words"})


class JobSchema(Schema):
    """A job as the API shows it (`job_id` is the document's ObjectId as 24 hex digits)."""

    job_id = fields.String(required=True, metadata=doc("24 hex digits"))
    job_type = fields.String(
        validate=validate.OneOf([t.name for t in JobType]),
        metadata=doc("SEARCH (a lowest-price search) or OUTBOX (delivering a search's result to the back office)"),
    )
    status = fields.String(
        validate=validate.OneOf([s.name for s in JobStatus]),
        metadata=doc("PENDING (waiting for a worker), RUNNING, DONE or DEAD (failed for good; can be re-driven)"),
    )
    product_code = fields.String(metadata=doc("the back office's product code"))
    product = fields.Nested(StoredProductSchema, metadata=doc("SEARCH: what was asked for"))
    priority = fields.String(validate=validate.OneOf([p.value for p in Priority]), metadata=doc("HIGH, NORMAL or LOW"))
    source_job_id = fields.String(metadata=doc("OUTBOX: the SEARCH job whose result it delivers"))
    watch_id = fields.String(metadata=doc("SEARCH: the watch that started it (absent for a search sent by POST)"))
    attempts = fields.Integer(metadata=doc("attempts started so far (deferrals not counted)"))
    max_attempts = fields.Integer(metadata=doc("attempts allowed before the job is DEAD"))
    created_at = fields.DateTime(metadata=doc("when the job was recorded (UTC)"))
    updated_at = fields.DateTime(metadata=doc("its last change"))
    enqueued_at = fields.DateTime(metadata=doc("when the broker confirmed its message (absent: not yet confirmed)"))
    run_after = fields.DateTime(metadata=doc("not run before this time (a retry's backoff)"))
    started_at = fields.DateTime(metadata=doc("when its latest attempt started"))
    finished_at = fields.DateTime(
        metadata=doc("when it ended DONE or DEAD (a re-driven job shows its death's until it ends again)")
    )
    lease_until = fields.DateTime(metadata=doc("RUNNING: the worker's lease; past it, the attempt counts as lost"))
    worker = fields.String(metadata=doc("the worker of its latest attempt"))
    last_error = fields.Nested(ErrorInfoSchema, metadata=doc("its latest failure (a DONE job may keep one)"))
    history = fields.List(
        fields.Nested(AttemptSchema), metadata=doc("its latest attempts, oldest first (the newest 20 are kept)")
    )
    result = fields.Nested(SearchResultSchema, metadata=doc("DONE SEARCH: what the search found"))
    delivery = fields.Nested(
        DeliverySchema, metadata=doc("DONE OUTBOX: the back office's answer to the delivery of the result")
    )
    deferrals = fields.Integer(
        metadata={
            "description": "times the job was given back without spending an attempt: its sources' turn had not come "
            "(pacing, a circuit breaker) or its worker stopped during the attempt"
        }
    )
    deferred = fields.Nested(
        DeferredSchema, metadata=doc("while PENDING after a deferral: its sources, why, until when")
    )
    redrives = fields.Integer(metadata=doc("times an operator re-drove it from DEAD"))
    redriven_at = fields.DateTime(metadata=doc("its latest re-drive"))
    redrive_history = fields.List(
        fields.Nested(RedriveSchema),
        metadata=doc("its re-drives, oldest first (the newest 20 are kept): when, and by which API key"),
    )
    republishes = fields.Integer(metadata=doc("times the reconciler published its message again (one was lost)"))


class JobResponseSchema(EnvelopeSchema):
    job = fields.Nested(JobSchema, required=True)


def job_to_api(document: dict[str, Any]) -> dict[str, Any]:
    """A stored job document in the API's shape: `_id` becomes `job_id`, ObjectIds become hex strings, internal
    fields are left out; datetimes are written as ISO 8601 by the answer's encoder (schemas.envelope.json_default).

    Not a marshmallow dump of JobSchema: on a page of 500 searches with their offers that costs the event loop
    tens of milliseconds, and it would silently drop a stored field the schema lacks. JobSchema documents the
    result instead, and tests/processes/test_openapi_real_jobs.py checks real jobs against it with no field allowed
    beyond it.
    """
    view = {key: value for key, value in document.items() if key not in HIDDEN_JOB_FIELDS}
    view["job_id"] = str(document["_id"])
    for reference in ("source_job_id", "watch_id"):
        if reference in document:
            view[reference] = str(document[reference])
    return view
