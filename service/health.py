"""The liveness and readiness probes (`/healthz`, `/readyz`)."""

from __future__ import annotations

from aiohttp import web
from aiohttp_apigami import docs
from pymongo.errors import PyMongoError

from infra.broker import AMQP_ERRORS
from infra.mongo import deadline, is_unavailable
from schemas.codes import ErrorType
from schemas.examples import (
    NOT_READY_EXAMPLES,
    SUCCESS_EXAMPLES,
)
from schemas.stats import HealthResponseSchema
from service.errors import envelope_response
from service.keys import (
    DATABASE,
    PUBLISHER,
    SETTINGS,
)


@docs(
    tags=["health"],
    summary="Liveness: the process is up (HEAD answers too)",
    responses={200: {"schema": HealthResponseSchema, "description": "up", "examples": SUCCESS_EXAMPLES["healthz"]}},
)
async def healthz(request: web.Request) -> web.Response:
    return envelope_response(ErrorType.SUCCESS, status="up")


@docs(
    tags=["health"],
    summary="Readiness: MongoDB and RabbitMQ reachable",
    responses={
        200: {"schema": HealthResponseSchema, "description": "ready", "examples": SUCCESS_EXAMPLES["readyz"]},
        503: {
            "schema": HealthResponseSchema,
            "description": "not ready: `checks` names what is unreachable; result DB_RUN_FAILED (10) when MongoDB "
            "is, else FAIL (1) when RabbitMQ is",
            "examples": NOT_READY_EXAMPLES,
        },
    },
)
async def readyz(request: web.Request) -> web.Response:
    checks: dict[str, str] = {}
    try:
        with deadline(request.app[SETTINGS]):
            await request.app[DATABASE].write.command("ping")
        checks["mongo"] = "ok"
    except PyMongoError as error:
        if not is_unavailable(error):
            raise
        checks["mongo"] = "unreachable"
    try:
        await request.app[PUBLISHER].ping()
        checks["rabbitmq"] = "ok"
    except AMQP_ERRORS:
        checks["rabbitmq"] = "unreachable"
    queue_type = request.app[SETTINGS].queue_type
    if all(state == "ok" for state in checks.values()):
        return envelope_response(ErrorType.SUCCESS, checks=checks, queue_type=queue_type)
    result = ErrorType.DB_RUN_FAILED if checks["mongo"] != "ok" else ErrorType.FAIL
    return envelope_response(result, http_status=503, checks=checks, queue_type=queue_type, message="not ready")
