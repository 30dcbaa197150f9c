"""The response envelope: `{"result": <ErrorType>, ...}` with None-valued keys left out at any depth, and its schema
(`EnvelopeSchema`, which every response schema extends)."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from marshmallow import Schema, fields, validate

from schemas.codes import HTTP_STATUS, ErrorType
from schemas.validation import doc


def drop_none(value: Any) -> Any:
    """Return `value` with every None-valued mapping key removed, recursively (lists are walked too)."""
    if isinstance(value, Mapping):
        return {key: drop_none(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        return [drop_none(item) for item in value]
    return value


def envelope(result: ErrorType, **body: Any) -> dict[str, Any]:
    return drop_none({"result": int(result), **body})


def json_default(value: Any) -> Any:
    """json.dumps fallback: datetimes as ISO 8601, anything else (ObjectId, enums) as its string."""
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


class EnvelopeSchema(Schema):
    result = fields.Integer(
        required=True,
        validate=validate.OneOf([int(e) for e in ErrorType]),
        metadata=doc(
            "the result code (ErrorType): 0 on success; each error's code goes with one HTTP status: "
            + ", ".join(f"{e.name}={e.value} ({HTTP_STATUS[e]})" for e in ErrorType)
        ),
    )
    message = fields.String(metadata=doc("what went wrong (or a note on a success), for a person"))


class ErrorResponseSchema(EnvelopeSchema):
    errors = fields.Dict(
        metadata=doc(
            "INVALID_REQUEST_DATA: schema violations by field (list positions as keys), each a list of messages"
        )
    )
