"""How each /v1/lps operation documents itself in the OpenAPI document: its answers, status by status with their
examples and what each result code means there, and the API key it needs."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from schemas.envelope import ErrorResponseSchema
from schemas.examples import (
    ERROR_EXAMPLES,
    SUCCESS_EXAMPLES,
)

#: The security scheme of the /v1/lps operations (components.securitySchemes, see service.app).
API_KEY_SCHEME = "ApiKey"


#: Each /v1/lps operation's requirement; service.app makes it optional when no keys are configured.
KEYED: list[dict[str, list[str]]] = [{API_KEY_SCHEME: []}]


#: What each error status means, shown with its examples (schemas.examples.ERROR_EXAMPLES).
_ERROR_DESCRIPTIONS: dict[int, dict[str, Any]] = {
    400: {
        "description": "JSON_PARSE_ERROR (100): body not JSON, not UTF-8, too deeply nested, or not sent as "
        "application/json; INVALID_REQUEST_DATA (101): schema violations, listed by field in `errors`",
    },
    404: {"description": "LPS_JOB_NOT_FOUND (1500): unknown or malformed job_id"},
    409: {
        "description": "LPS_JOB_NOT_RETRYABLE (1501): the job is not DEAD; DB_ALREADY_SAME_KEY (11): "
        "its product already has another active search job",
    },
    419: {
        "description": "HTTP_INVALID_CLIENT_REQUEST (419): body or batch too large, or body not received in time",
    },
    429: {
        "description": "HTTP_TO_MANY_REQUEST (429): over the client's rate limit, or too many requests refused "
        "for their key from this address",
        "headers": {
            "Retry-After": {"description": "seconds until a request is taken again", "schema": {"type": "integer"}}
        },
    },
    433: {
        "description": "HTTP_INVALID_CLIENT_ACCESS (433): X-API-Key missing or unknown (when LPS_API_KEYS is set), "
        "or a read-only key (`:read`) on a request that changes something",
    },
    500: {"description": "INTERNAL_EXCEPTION (102): an unexpected error (logged by the gateway)"},
    503: {
        "description": "DB_RUN_FAILED (10): MongoDB unreachable or past LPS_MONGO_TIMEOUT_MS. For a search: "
        "not known to be recorded; POST the same products again (jobs that did land come back duplicate=true)",
    },
}


#: Every /v1/lps operation can meet these: the guards (429, 433) and the store (503), and a bug (500).
_ALWAYS = (429, 433, 500, 503)


def answers(
    schema: type[Schema], success: str, *statuses: int, examples: dict[int, dict[str, Any]] | None = None
) -> dict[int, dict[str, Any]]:
    """An operation's documented answers: 200 with its examples, and each error status with its own
    (`examples` replaces a status's shared ones)."""
    success_response = {"schema": schema, "description": "SUCCESS (0)", "examples": SUCCESS_EXAMPLES[success]}
    return {200: success_response, **error_answers(*statuses, examples=examples)}


def error_answers(*statuses: int, examples: dict[int, dict[str, Any]] | None = None) -> dict[int, dict[str, Any]]:
    """The documented error answers of an operation: these statuses and those every operation can meet."""
    responses = {}
    for status in sorted({*statuses, *_ALWAYS}):
        shown = (examples or {}).get(status, ERROR_EXAMPLES[status])
        responses[status] = {"schema": ErrorResponseSchema, **_ERROR_DESCRIPTIONS[status], "examples": shown}
    return responses
