"""Examples the OpenAPI document shows (Swagger UI's "Try it out" posts the request example as it is).

Each error example is the envelope the gateway answers with, so its `result` is the code that goes with the
status it is shown under (schemas.codes.HTTP_STATUS). tests/integration/test_openapi.py checks both, and that every
example validates against its own schema.
"""

from __future__ import annotations

from typing import Any

from schemas.codes import ErrorType

SEARCH_REQUEST = {
    "products": [
        {
            "product_code": "SKU-1001",
            "keyword": "삼성 갤럭시 버즈3 프로",
            "model_no": "SM-R630",
            "target_price": 259000,
        },
        {"product_code": "SKU-1002", "keyword": "아이폰 15 128GB", "model_no": "MTP03KH/A"},
    ],
    "priority": "NORMAL",
}

_JOB_ID = "6754a1c2e13f4b0a9c8d7e6f"
_OFFER = {
    "source": "coupang",
    "title": "삼성전자 갤럭시 버즈3 프로 SM-R630, 실버",
    "price": 239000,
    "url": "https://www.coupang.com/vp/products/8213456789?itemId=23456789012&vendorItemId=90123456789",
    "product_id": "8213456789",
    "item_id": "23456789012",
    "vendor_item_id": "90123456789",
    "delivery": "ROCKET",
    "sold_out": False,
    "is_ad": False,
    "rating": 4.5,
    "review_count": 1284,
}
_REFUSED_OFFER = {
    "source": "naver",
    "title": "갤럭시 버즈3 프로 전용 실리콘 케이스",
    "price": 12900,
    "url": "https://search.shopping.naver.com/catalog/51234567890",
    "product_id": "51234567890",
    "delivery": "GENERAL",
    "sold_out": False,
    "is_ad": False,
    "rejected": "title lacks the model number SM-R630",
}

DONE_SEARCH_JOB: dict[str, Any] = {
    "job_id": _JOB_ID,
    "job_type": "SEARCH",
    "status": "DONE",
    "product_code": "SKU-1001",
    "product": {"keyword": "삼성 갤럭시 버즈3 프로", "model_no": "SM-R630", "target_price": 259000},
    "priority": "NORMAL",
    "attempts": 1,
    "max_attempts": 5,
    "created_at": "2026-12-01T00:10:00.120000+00:00",
    "updated_at": "2026-12-01T00:10:04.870000+00:00",
    "enqueued_at": "2026-12-01T00:10:00.135000+00:00",
    "run_after": "2026-12-01T00:10:00.120000+00:00",
    "started_at": "2026-12-01T00:10:00.410000+00:00",
    "finished_at": "2026-12-01T00:10:04.870000+00:00",
    "worker": "search-1:4182:3",
    "history": [
        {
            "attempt": 1,
            "worker": "search-1:4182:3",
            "started_at": "2026-12-01T00:10:00.410000+00:00",
            "finished_at": "2026-12-01T00:10:04.870000+00:00",
            "outcome": "DONE",
        }
    ],
    "result": {
        "outcome": "FOUND",
        "complete": True,
        "lowest": _OFFER,
        "offers": [_REFUSED_OFFER, _OFFER],
        "sources": {
            "coupang": {"outcome": "FOUND", "count": 1, "ms": 4210},
            "naver": {"outcome": "FOUND", "count": 1, "ms": 380},
        },
        "searched_at": "2026-12-01T00:10:04.860000+00:00",
    },
}

REDRIVEN_JOB: dict[str, Any] = {
    "job_id": "6754a1c2e13f4b0a9c8d7e70",
    "job_type": "SEARCH",
    "status": "PENDING",
    "product_code": "SKU-1002",
    "product": {"keyword": "아이폰 15 128GB", "model_no": "MTP03KH/A"},
    "priority": "NORMAL",
    "attempts": 0,
    "max_attempts": 5,
    "created_at": "2026-12-01T00:10:00.120000+00:00",
    "updated_at": "2026-12-01T00:42:10.500000+00:00",
    "enqueued_at": "2026-12-01T00:42:10.520000+00:00",
    "run_after": "2026-12-01T00:42:10.500000+00:00",
    "started_at": "2026-12-01T00:31:02.300000+00:00",
    "worker": "search-1:4182:1",
    "last_error": {
        "type": "BLOCKED",
        "message": "coupang: the site answered with a block page",
        "at": "2026-12-01T00:31:09.900000+00:00",
        "snapshot": "gridfs:snapshots/6754a9e5e13f4b0a9c8d7e91",
    },
    "history": [
        {
            "attempt": 5,
            "worker": "search-1:4182:1",
            "started_at": "2026-12-01T00:31:02.300000+00:00",
            "finished_at": "2026-12-01T00:31:09.900000+00:00",
            "outcome": "DEAD",
            "error": {
                "type": "BLOCKED",
                "message": "coupang: the site answered with a block page",
                "at": "2026-12-01T00:31:09.900000+00:00",
            },
        }
    ],
    "redrives": 1,
    "redriven_at": "2026-12-01T00:42:10.500000+00:00",
}


def example(summary: str, value: dict[str, Any]) -> dict[str, Any]:
    """One entry of an OpenAPI `examples` map."""
    return {"summary": summary, "value": value}


def error(result: ErrorType, message: str, **body: Any) -> dict[str, Any]:
    """An error answer's example, named after its result code."""
    return {result.name: example(f"{result.name} ({int(result)})", {"result": int(result), "message": message, **body})}


_WATCH_ID = "6754a1c2e13f4b0a9c8d7e70"
_WATCH = {
    "watch_id": _WATCH_ID,
    "product_code": "SKU-1001",
    "product": {"keyword": "삼성 갤럭시 버즈3 프로", "model_no": "SM-R630", "target_price": 259000},
    "every": "6h",
    "timezone": "Asia/Seoul",
    "notify": "on_change",
    "priority": "NORMAL",
    "paused": False,
    "next_run_at": "2026-12-01T06:12:30+00:00",
    "created_at": "2026-12-01T00:10:00+00:00",
    "updated_at": "2026-12-01T00:10:00+00:00",
    "last_run_at": "2026-12-01T00:10:00+00:00",
    "last_job_id": _JOB_ID,
    "runs": 1,
    "skipped_active": 0,
    "deliveries": 1,
    "deliveries_skipped": 0,
    "last_delivered": {"job_id": _JOB_ID, "outcome": "FOUND", "lowest_price": 239000},
    "lowest_prices": [{"source": "coupang", "price": 239000, "searched_at": "2026-12-01T00:10:04+00:00"}],
}
_WATCH_SUCCESS_EXAMPLES: dict[str, dict[str, Any]] = {
    "watch_create": {
        "created": example(
            "a new watch and a duplicate",
            {
                "result": 0,
                "watches": [
                    {"product_code": "SKU-1001", "watch_id": _WATCH_ID, "duplicate": False},
                    {"product_code": "SKU-1002", "watch_id": "6754a1c2e13f4b0a9c8d7e71", "duplicate": True},
                ],
            },
        )
    },
    "watch_list": {"page": example("one page", {"result": 0, "watches": [_WATCH], "next_cursor": _WATCH_ID})},
    "watch": {"watch": example("a watch after its first delivery", {"result": 0, "watch": _WATCH})},
    "watch_deleted": {"deleted": example("the watch is gone", {"result": 0})},
}


SUCCESS_EXAMPLES: dict[str, dict[str, Any]] = {
    "search": {
        "enqueued": example(
            "a new job and a duplicate",
            {
                "result": 0,
                "jobs": [
                    {"product_code": "SKU-1001", "job_id": _JOB_ID, "status": "PENDING", "duplicate": False},
                    {
                        "product_code": "SKU-1002",
                        "job_id": "6754a1c2e13f4b0a9c8d7e70",
                        "status": "RUNNING",
                        "duplicate": True,
                        "keyword_ignored": True,
                    },
                ],
            },
        )
    },
    "jobs": {
        "page": example(
            "one page, with the cursor of the next",
            {"result": 0, "jobs": [DONE_SEARCH_JOB], "next_cursor": f"1764547800120-{_JOB_ID}"},
        )
    },
    "job": {"done": example("a DONE search with its result", {"result": 0, "job": DONE_SEARCH_JOB})},
    "retry": {"redriven": example("PENDING again, history kept", {"result": 0, "job": REDRIVEN_JOB})},
    "redrive": {
        "page": example(
            "POST /v1/lps/jobs/redrive?error_type=BLOCKED&limit=2: one re-driven, one refused, a next page",
            {
                "result": 0,
                "jobs": [
                    {"job_id": _JOB_ID, "product_code": "SKU-1001", "error_type": "BLOCKED", "redriven": True},
                    {
                        "job_id": "6754a1c2e13f4b0a9c8d7e70",
                        "product_code": "SKU-1002",
                        "error_type": "BLOCKED",
                        "redriven": False,
                        "refused": {
                            "result": int(ErrorType.DB_ALREADY_SAME_KEY),
                            "message": "its product already has an active search job; re-drive refused",
                        },
                    },
                ],
                "next_cursor": f"1764547800120-{_JOB_ID}",
            },
        )
    },
    "discard": {
        "discarded": example(
            "DELETE /v1/lps/jobs/{job_id}",
            {
                "result": 0,
                "discarded": {
                    "job_id": _JOB_ID,
                    "job_type": "SEARCH",
                    "product_code": "SKU-1001",
                    "error_type": "BLOCKED",
                    "attempts": 5,
                    "finished_at": "2026-12-01T00:12:09+00:00",
                    "by": "ops",
                    "at": "2026-12-01T00:40:00+00:00",
                },
            },
        )
    },
    "pause": {
        "paused": example(
            "POST /v1/lps/queues/search/pause",
            {
                "result": 0,
                "queue": "search",
                "paused": True,
                "changed_by": "ops",
                "changed_at": "2026-12-01T00:40:00+00:00",
                "changed": True,
            },
        )
    },
    "resume": {
        "resumed": example(
            "POST /v1/lps/queues/search/resume",
            {
                "result": 0,
                "queue": "search",
                "paused": False,
                "changed_by": "ops",
                "changed_at": "2026-12-01T00:55:00+00:00",
                "changed": True,
            },
        )
    },
    "stats": {
        "stats": example(
            "counts, queues and sources",
            {
                "result": 0,
                "stats": {"PENDING": 12, "RUNNING": 4, "DONE": 1840, "DEAD": 7},
                "counted_until": "2026-12-01T00:42:05+00:00",
                "by_type": {
                    "SEARCH": {"PENDING": 11, "RUNNING": 4, "DONE": 925, "DEAD": 6},
                    "OUTBOX": {"PENDING": 1, "RUNNING": 0, "DONE": 915, "DEAD": 1},
                },
                "delayed": {"SEARCH": 3, "OUTBOX": 0},
                "queue_type": "classic",
                "paused": {
                    "search": {"paused": True, "changed_by": "ops", "changed_at": "2026-12-01T00:40:00+00:00"},
                    "outbox": {"paused": False},
                },
                "queues": {
                    "search": {"messages": 8, "consumers": 4, "delayed": 3, "dead": 0},
                    "outbox": {"messages": 1, "consumers": 2, "delayed": 0, "dead": 0},
                },
                "reconciler": {"republished_unconfirmed": 2, "dead_lettered": 1},
                "sources": {
                    "coupang": {
                        "rate": "30/m",
                        "tokens_used": 12,
                        "tokens_left": 18,
                        "pace": 0.75,
                        "concurrency": 4,
                        "in_flight": 3,
                        "waiting": 1,
                        "deferred_jobs": 0,
                        "breaker": {"state": "CLOSED", "blocked": 0, "trips_at": 5, "window": 20, "trips": 0},
                    }
                },
            },
        )
    },
    "timeline": {
        "two minutes": example(
            "GET /v1/lps/queue/timeline?minutes=2",
            {
                "result": 0,
                "timeline": [
                    {
                        "at": "2026-12-01T00:41:00+00:00",
                        "ended": {"SEARCH": {"DONE": 3, "DEAD": 1}, "OUTBOX": {"DONE": 3, "DEAD": 0}},
                        "sources": {"coupang": {"FOUND": 2, "BLOCKED": 1}, "naver": {"FOUND": 3}},
                        "attempt_ms": {
                            "SEARCH": {"p50": 2410.0, "p95": 5120.0, "count": 4},
                            "OUTBOX": {"p50": 12.0, "p95": 31.0, "count": 3},
                        },
                    },
                    {
                        "at": "2026-12-01T00:42:00+00:00",
                        "ended": {"SEARCH": {"DONE": 0, "DEAD": 0}, "OUTBOX": {"DONE": 0, "DEAD": 0}},
                        "sources": {},
                        "attempt_ms": {},
                    },
                ],
                "counted_until": "2026-12-01T00:42:05+00:00",
                "catching_up": False,
            },
        )
    },
    "healthz": {"up": example("the process is up", {"result": 0, "status": "up"})},
    "readyz": {
        "ready": example(
            "both reachable", {"result": 0, "checks": {"mongo": "ok", "rabbitmq": "ok"}, "queue_type": "classic"}
        )
    },
    **_WATCH_SUCCESS_EXAMPLES,
}

#: Error examples by HTTP status; an operation shows those of the statuses it documents.
ERROR_EXAMPLES: dict[int, dict[str, Any]] = {
    400: error(ErrorType.JSON_PARSE_ERROR, "request body is not valid JSON (UTF-8)")
    | error(
        ErrorType.INVALID_REQUEST_DATA,
        "invalid request data",
        errors={"products": {"0": {"keyword": ["must not be blank"]}}},
    ),
    404: error(ErrorType.LPS_JOB_NOT_FOUND, "no such job"),
    409: error(ErrorType.LPS_JOB_NOT_RETRYABLE, "only a DEAD job can be re-driven; this one is DONE")
    | error(ErrorType.DB_ALREADY_SAME_KEY, "its product already has an active search job; re-drive refused"),
    419: error(ErrorType.HTTP_INVALID_CLIENT_REQUEST, "at most 1000 products per request"),
    429: error(ErrorType.HTTP_TO_MANY_REQUEST, "too many requests; retry later"),
    433: error(ErrorType.HTTP_INVALID_CLIENT_ACCESS, "missing X-API-Key header"),
    500: error(ErrorType.INTERNAL_EXCEPTION, "internal error"),
    503: error(ErrorType.DB_RUN_FAILED, "database unavailable, try again later"),
}

#: Readiness answers 503 for either dependency (result FAIL when only RabbitMQ is down).
NOT_READY_EXAMPLES = error(
    ErrorType.DB_RUN_FAILED, "not ready", checks={"mongo": "unreachable", "rabbitmq": "ok"}
) | error(ErrorType.FAIL, "not ready", checks={"mongo": "ok", "rabbitmq": "unreachable"})
#: 404 of the watch operations.
WATCH_NOT_FOUND_EXAMPLES = error(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
#: POST /v1/lps/watches: the search's products, searched every 6 hours, delivered when the lowest price moves.
WATCH_REQUEST = {"products": SEARCH_REQUEST["products"][:1], "every": "6h", "notify": "on_change"}
#: PATCH /v1/lps/watches/{watch_id}: a new target and a daily schedule at 09:00 (LPS_TIMEZONE).
WATCH_PATCH = {"target_price": 229000, "cron": "0 9 * * *", "notify": "below_target"}
