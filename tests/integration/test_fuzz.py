"""Schemathesis drives the running gateway over real HTTP from the OpenAPI document the gateway serves.

Every generated request, valid or not, must get an answer the contract allows: no 5xx, a JSON envelope whose
`result` is a known ErrorType with its HTTP status, and a status and body the document declares.

Each operation is fuzzed with Hypothesis through `operation.as_strategy()`: schemathesis's pytest loader for
fixtures (`schemathesis.pytest.from_fixture`) does not run on pytest 9.2 (it sets `Node._nodeid`, gone there).
"""

from __future__ import annotations

import asyncio
import time
import warnings

import hypothesis
import schemathesis
from aiohttp.test_utils import TestClient
from schemathesis import APIOperation, Case, CheckContext, GenerationMode, Response
from schemathesis.config import SchemathesisConfig

from infra.settings import Settings
from schemas.codes import HTTP_STATUS, ErrorType
from schemas.offers import SourceName
from service.auth import API_KEY_HEADER
from tests.gateway_calls import serving_gateway

#: Generated requests per operation and generation mode (schema-valid, schema-violating).
MAX_EXAMPLES = 30
#: Seconds all operations together may take; cases generated past it are not sent (the suite must stay quick).
TIME_BUDGET = 40.0
#: Seconds one request may take; the gateway answers within MongoDB's timeout or not at all.
REQUEST_TIMEOUT = 10.0

KNOWN_RESULTS = {int(result) for result in ErrorType}
#: Statuses that reject a schema-violating request: schemathesis's own list plus this contract's 419 (more than
#: 1000 products, a body over 1 MiB) and 433 (negative cases may leave out the declared X-API-Key header).
REJECTIONS = ["400", "401", "403", "404", "405", "406", "409", "415", "419", "422", "428", "429", "433", "5xx"]
FUZZ_CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}})
FUZZ_KEY = "fuzz-key-0123456789"
#: The largest integer MongoDB stores (BSON int64).
INT64_MAX = 2**63 - 1


def an_envelope_with_a_known_result(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """The body is `{"result": <ErrorType>, ...}` and the HTTP status is the one that goes with that result."""
    if case.method.upper() == "HEAD":
        return None  # a HEAD answer has the GET answer's headers and never a body
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"body is not JSON: {response.text[:200]!r}") from None
    if not isinstance(body, dict) or body.get("result") not in KNOWN_RESULTS:
        raise AssertionError(f"not an envelope with a known result: {response.text[:200]!r}")
    result = ErrorType(body["result"])
    allowed = {HTTP_STATUS[result]}
    if result is ErrorType.INVALID_REQUEST_DATA:
        allowed |= {404, 405}  # an unknown route or a wrong method keeps its HTTP status
    if result is ErrorType.FAIL:
        allowed.add(503)  # /readyz while RabbitMQ is unreachable
    if response.status_code not in allowed:
        raise AssertionError(f"result {result.name} came with HTTP {response.status_code}, not {sorted(allowed)}")
    return True


#: Operations with a field whose document states its form, not its meaning, which JSON Schema cannot express: a watch's
#: `cron` (a day that exists in the month, a range that runs forwards) and the job list's `q` (1 to 8 words of
#: letters or digits, as the analyzer splits them). A schema-valid request may be refused naming that field alone.
MEANING_CHECKED_FIELDS = {
    "POST /v1/lps/watches": "cron",
    "PATCH /v1/lps/watches/{watch_id}": "cron",
    "GET /v1/lps/jobs": "q",
    "POST /v1/lps/jobs/redrive": "q",  # the listing's filters, q among them
}


def refused_only_for_the_field_whose_meaning_is_checked(
    ctx: CheckContext, response: Response, case: Case
) -> bool | None:
    """Replaces schemathesis's positive_data_acceptance on MEANING_CHECKED_FIELDS' operations: a schema-valid request
    may be refused only with 101 naming that field alone; any other refusal fails as before."""
    if response.status_code < 400 or response.status_code in (404, 409, 429):
        return None
    field = MEANING_CHECKED_FIELDS[case.operation.label]
    body = response.json()
    if body.get("result") != ErrorType.INVALID_REQUEST_DATA or set(body.get("errors") or {}) != {field}:
        raise AssertionError(f"schema-valid request refused: {response.text[:300]}")
    return True


class Budget:
    """One deadline for the whole run; counts the cases it kept from being sent."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.cut = 0

    def spent(self) -> bool:
        if time.monotonic() < self.deadline:
            return False
        self.cut += 1
        return True


def fuzz(operation: APIOperation, mode: GenerationMode, budget: Budget) -> None:
    """Send up to MAX_EXAMPLES generated requests to one operation and check every answer (runs in a thread)."""

    additional = [an_envelope_with_a_known_result]
    # It re-sends requests without the declared key and wants 401 or 403; the contract answers 433
    # (test_auth_gateway.py proves every /v1/lps operation refuses a missing or unknown key).
    excluded = [schemathesis.checks.ignored_auth]
    if operation.label in MEANING_CHECKED_FIELDS and mode is GenerationMode.POSITIVE:
        additional.append(refused_only_for_the_field_whose_meaning_is_checked)
        excluded.append(schemathesis.checks.positive_data_acceptance)

    @hypothesis.settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,  # failing cases are not kept between runs: a failure prints its case and a curl command
        suppress_health_check=[hypothesis.HealthCheck.too_slow, hypothesis.HealthCheck.filter_too_much],
    )
    @hypothesis.given(case=operation.as_strategy(generation_mode=mode))
    def send(case: Case) -> None:
        if budget.spent():
            return
        # The generated key is replaced by a real one; a negative case that left the key out stays without it
        # (adding it back would turn the case valid, and the gateway's 200 would then count as accepting bad data).
        generated = {name.lower() for name in case.headers or {}}
        case.call_and_validate(
            headers={API_KEY_HEADER: FUZZ_KEY} if API_KEY_HEADER.lower() in generated else {},
            additional_checks=additional,
            excluded_checks=excluded,
            timeout=REQUEST_TIMEOUT,
        )

    try:
        send()
    except hypothesis.errors.Unsatisfiable:
        # Nothing in the operation can be made invalid (no parameters, or only unconstrained strings).
        if mode is not GenerationMode.NEGATIVE:
            raise


async def test_every_generated_request_gets_a_documented_envelope(settings: Settings):
    # Keys and a rate limit as in production, so every request also goes through both guards (never refused).
    # Every source enabled: the document lists them all, and a product naming one must then be accepted.
    guarded = settings.with_overrides(
        api_keys={"fuzzer": FUZZ_KEY}, rate_limit_per_second=10_000.0, search_sources=tuple(SourceName)
    )
    # Served as `lps gateway` serves it: what aiohttp's HTTP parser refuses (a request line past 8,190 bytes) is
    # answered by the gateway's own connections, with the envelope.
    async with serving_gateway(guarded) as port:
        spec_url = f"http://127.0.0.1:{port}/api/docs/swagger.json"
        # Schemathesis calls block: they run in a thread, so this event loop keeps serving the gateway meanwhile.
        schema = await asyncio.to_thread(
            schemathesis.openapi.from_url, spec_url, timeout=REQUEST_TIMEOUT, config=FUZZ_CONFIG
        )
        operations = [result.ok() for result in schema.get_all_operations()]
        assert {operation.label for operation in operations} >= {"POST /v1/lps/search", "GET /v1/lps/jobs/{job_id}"}

        budget = Budget(TIME_BUDGET)
        failures: list[Exception] = []
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                try:
                    await asyncio.to_thread(fuzz, operation, mode, budget)
                except Exception as error:  # every operation is fuzzed, then all failures are reported together
                    error.add_note(f"fuzzing {operation.label} ({mode.value})")
                    failures.append(error)
        if failures:
            raise ExceptionGroup(f"{len(failures)} operation(s) answered outside the contract", failures)
        if budget.cut:
            warnings.warn(f"fuzz time budget of {TIME_BUDGET:.0f} s spent: {budget.cut} cases not sent", stacklevel=1)


async def test_a_target_price_past_64_bits_is_invalid_request_data(client: TestClient):
    product = {"product_code": "BIG-1", "keyword": "k", "target_price": INT64_MAX + 1}
    response = await client.post("/v1/lps/search", json={"products": [product]})
    assert (response.status, (await response.json())["result"]) == (400, 101)


async def test_the_document_says_the_search_body_is_required(client: TestClient):
    spec = await (await client.get("/api/docs/swagger.json")).json()
    assert spec["paths"]["/v1/lps/search"]["post"]["requestBody"]["required"] is True


async def test_the_document_describes_the_liveness_answer(client: TestClient):
    spec = await (await client.get("/api/docs/swagger.json")).json()
    assert "status" in spec["components"]["schemas"]["HealthResponse"]["properties"]
