"""Shapes of `GET /v1/lps/queue/timeline`: what ended per minute (the dashboard's live charts)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.envelope import EnvelopeSchema
from schemas.validation import StrictSchema

#: The longest window a caller may ask for (and what a gateway keeps, infra/timeline.py).
TIMELINE_MINUTES = 120
DEFAULT_MINUTES = 60


class TimelineQuerySchema(StrictSchema):
    minutes = fields.Integer(
        load_default=DEFAULT_MINUTES,
        validate=validate.Range(min=1, max=TIMELINE_MINUTES),
        metadata={"description": "how many minutes, up to the current one"},
    )


class AttemptMsSchema(Schema):
    p50 = fields.Float(required=True, metadata={"description": "median, milliseconds"})
    p95 = fields.Float(required=True, metadata={"description": "95th percentile (nearest rank), milliseconds"})
    count = fields.Integer(required=True, metadata={"description": "attempts measured"})


class MinuteSchema(Schema):
    at = fields.DateTime(required=True, metadata={"description": "the minute's start (UTC)"})
    ended = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Integer()),
        required=True,
        metadata={"description": "by job type: jobs that ended DONE and DEAD in this minute (every type listed)"},
    )
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Integer()),
        required=True,
        metadata={
            "description": "by search source: the outcomes (FOUND, NO_RESULTS, BLOCKED, …) in the results of the "
            "searches that ended in this minute (a DEAD search without a result has none)"
        },
    )
    attempt_ms = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(AttemptMsSchema),
        required=True,
        metadata={"description": "by job type: duration of the attempts that ended a job in this minute"},
    )


class TimelineResponseSchema(EnvelopeSchema):
    timeline = fields.List(
        fields.Nested(MinuteSchema), required=True, metadata={"description": "one entry per minute, oldest first"}
    )
    counted_until = fields.DateTime(
        required=True,
        metadata={"description": "every job that ended before this is counted; the last minute is still filling"},
    )
    catching_up = fields.Boolean(
        required=True,
        metadata={"description": "more ended jobs were waiting than one call reads (a gateway that just started)"},
    )
