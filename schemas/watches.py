"""Watches in the HTTP API: request validation, the OpenAPI schemas, and a stored watch in the API's shape."""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing, validate, validates_schema

from schemas.codes import Priority
from schemas.envelope import EnvelopeSchema
from schemas.schedule import CRON_PATTERN, check_cron, every_pattern, parse_every, seconds_between_runs
from schemas.search_request import MAX_PRODUCTS_PER_REQUEST, PRODUCT_CODE_PATTERN, ProductSchema
from schemas.validation import FullMatch, StrictSchema, Text

#: A watch listing cursor: the last watch's id.
WATCH_CURSOR_PATTERN = r"^[0-9a-f]{24}$"


class Notify(StrEnum):
    """When a watch's result is delivered."""

    ALWAYS = "always"  # every result
    ON_CHANGE = "on_change"  # the lowest price or offer, its doubts or the outcome changed since the last delivery
    BELOW_TARGET = "below_target"  # the lowest price crossed below target_price


def _every(value: str) -> None:
    try:
        parse_every(value)
    except ValueError as error:
        raise ValidationError(str(error)) from None


def _cron(value: str) -> None:
    try:
        check_cron(value)
    except ValueError as error:
        raise ValidationError(str(error)) from None


class _ScheduleFields(StrictSchema):
    """`every` xor `cron`, and `notify`: shared by a new watch and a change to one."""

    every = Text(
        validate=_every,
        metadata={
            "description": "an interval: 90s, 15m, 6h, 1d (at least LPS_WATCH_MIN_INTERVAL, 300 s by default; "
            "the pattern is this deployment's)",
            "example": "6h",
            "pattern": every_pattern(),
        },
    )
    cron = Text(
        validate=_cron,
        metadata={
            "description": "five cron fields in LPS_TIMEZONE (Asia/Seoul by default), numbers only (no MON, JAN); "
            "refused when it names no real moment (31 2 …) or a backwards range",
            "example": "0 9 * * *",
            "pattern": CRON_PATTERN,
        },
    )
    notify = fields.Enum(Notify, by_value=True, metadata={"description": "always | on_change | below_target"})
    priority = fields.Enum(Priority, by_value=True)

    def __init__(self, *args: Any, min_interval: float = 300.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.min_interval = min_interval

    @validates_schema(skip_on_field_errors=False)
    def one_schedule_at_least_the_minimum(self, data: dict[str, Any], **_: Any) -> None:
        if "every" in data and "cron" in data:
            raise ValidationError("give every or cron, not both", "cron")
        for name in ("every", "cron"):
            if (value := data.get(name)) is None:
                continue
            try:
                gap = seconds_between_runs(**{name: value})
            except ValueError:
                return  # the field's own error says why
            # The same floor for both: "* * * * *" would otherwise search once a minute.
            if gap < self.min_interval:
                message = f"must be at least {self.min_interval:g} s (LPS_WATCH_MIN_INTERVAL)"
                if name == "cron":
                    message += f" between two runs; this one runs {gap:g} s apart"
                raise ValidationError(message, name)


class WatchRequestSchema(_ScheduleFields):
    """POST /v1/lps/watches: one watch per product (same product fields as a search)."""

    products = fields.List(
        fields.Nested(ProductSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_PRODUCTS_PER_REQUEST),
    )

    @validates_schema
    def a_schedule_and_targets(self, data: dict[str, Any], **_: Any) -> None:
        if "every" not in data and "cron" not in data:
            raise ValidationError("give every or cron", "every")
        if data.get("notify", Notify.ON_CHANGE) is Notify.BELOW_TARGET:
            missing = {
                index: {"target_price": ["required when notify is below_target"]}
                for index, product in enumerate(data["products"])
                if product.get("target_price") is None
            }
            if missing:
                raise ValidationError({"products": missing})


def _optional(field: fields.Field) -> fields.Field:
    """A product field as PATCH takes it: validated the same, but only when given (null clears an optional one)."""
    optional = copy.copy(field)
    optional.required = False
    optional.load_default = missing
    if field.allow_none:
        described = field.metadata.get("description")
        cleared = f"{described}; null clears it" if described else "null clears it"
        optional.metadata = field.metadata | {"description": cleared}
    return optional


#: What PATCH takes as null: the watch goes back to not having it (sources: every enabled one; priority: the
#: default). keyword, every, cron and notify always have a value: null is refused for them.
CLEARABLE_FIELDS = ("model_no", "target_price", "sources", "priority")


class WatchPatchSchema(_ScheduleFields):
    """PATCH /v1/lps/watches/{id}: the fields given replace the watch's (a new schedule starts from now); null
    clears one of CLEARABLE_FIELDS."""

    keyword = _optional(ProductSchema._declared_fields["keyword"])
    model_no = _optional(ProductSchema._declared_fields["model_no"])
    target_price = _optional(ProductSchema._declared_fields["target_price"])
    sources = _optional(ProductSchema._declared_fields["sources"])
    priority = fields.Enum(Priority, by_value=True, allow_none=True, metadata={"description": "null: the default"})


class WatchListQuerySchema(StrictSchema):
    product_code = Text(validate=FullMatch(PRODUCT_CODE_PATTERN))
    cursor = Text(
        validate=FullMatch(WATCH_CURSOR_PATTERN),
        metadata={"description": "next_cursor of the previous page, as given"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))


class CreatedWatchSchema(Schema):
    product_code = fields.String(required=True)
    watch_id = fields.String(required=True)
    duplicate = fields.Boolean(
        required=True, metadata={"description": "true: the product already had a watch (that one is answered)"}
    )


class WatchCreateResponseSchema(EnvelopeSchema):
    watches = fields.List(fields.Nested(CreatedWatchSchema), required=True)


class WatchSchema(Schema):
    """A watch as the API shows it."""

    watch_id = fields.String(required=True)
    product_code = fields.String()
    product = fields.Dict()
    every = fields.String()
    cron = fields.String()
    timezone = fields.String()
    notify = fields.String()
    priority = fields.String()
    paused = fields.Boolean()
    next_run_at = fields.DateTime()
    created_at = fields.DateTime()
    updated_at = fields.DateTime()
    last_run_at = fields.DateTime()
    last_job_id = fields.String()
    runs = fields.Integer(metadata={"description": "searches the watch started"})
    skipped_active = fields.Integer(
        metadata={"description": "runs skipped because the product's previous search was still active"}
    )
    deliveries = fields.Integer(metadata={"description": "results the receiver answered 2xx to"})
    deliveries_skipped = fields.Integer(metadata={"description": "results not delivered: unchanged, not a crossing"})
    last_delivered = fields.Dict(
        metadata={
            "description": "the last result the receiver answered 2xx to: "
            "job_id, outcome, lowest_price, lowest_offer, doubts"
        }
    )
    last_seen = fields.Dict(metadata={"description": "the last result the outbox judged (delivered or not)"})
    lowest_prices = fields.List(
        fields.Dict(),
        metadata={"description": "the last lowest prices per search and source (price_history), newest first"},
    )


class WatchListResponseSchema(EnvelopeSchema):
    watches = fields.List(fields.Nested(WatchSchema), required=True)
    next_cursor = fields.String(metadata={"description": "pass as `cursor` for the next page; absent on the last"})


class WatchResponseSchema(EnvelopeSchema):
    watch = fields.Nested(WatchSchema, required=True)


def watch_to_api(document: dict[str, Any]) -> dict[str, Any]:
    """A stored watch in the API's shape: `_id` becomes `watch_id`, ObjectIds become hex strings."""
    view = {key: value for key, value in document.items() if key not in {"_id", "anchor_at", "every_seconds"}}
    view["watch_id"] = str(document["_id"])
    if "last_job_id" in document:
        view["last_job_id"] = str(document["last_job_id"])
    for name in ("last_delivered", "last_seen"):
        if isinstance(view.get(name), dict) and "job_id" in view[name]:
            view[name] = view[name] | {"job_id": str(view[name]["job_id"])}
    return _WATCH_SCHEMA.dump({key: value for key, value in view.items() if value is not None})


_WATCH_SCHEMA = WatchSchema()
