"""The response envelope: `{"result": <ErrorType>, ...}` with None-valued keys left out at any depth."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from schemas.codes import ErrorType


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
