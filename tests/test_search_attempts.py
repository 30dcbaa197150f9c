"""A search attempt over several sources: complete, or say so (pure units: sources stand in memory)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from actors.errors import JobError, PermanentJobError
from actors.middleware import failure_of
from actors.search import KEPT, work_search
from actors.sources import SourceBlocked
from infra.lifecycle import RetryPolicy, decide
from infra.settings import Settings
from schemas.codes import AttemptOutcome, JobErrorType
from schemas.offers import Offer, SourceOutcome, SourceResult

NOW = datetime(2026, 1, 1, tzinfo=UTC)
EMPTY = SourceResult(SourceOutcome.NO_RESULTS, [])
POLICY = RetryPolicy(1.0, 10.0)


class Scripted:
    """A source that answers from a script and counts its searches."""

    def __init__(self, name: str, answer: SourceResult | Exception) -> None:
        self.name = name
        self.answer = answer
        self.searches = 0

    async def search(self, product: dict[str, Any]) -> SourceResult:
        self.searches += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class Runtime:
    def __init__(self, *sources: Scripted) -> None:
        self.sources = {source.name: source for source in sources}
        self.settings = Settings(search_sources=tuple(self.sources))


def found(source: str, price: int) -> SourceResult:
    return SourceResult(SourceOutcome.FOUND, [Offer(source=source, title="widget", price=price, url="https://x")])


def search_job(attempts: int = 1, max_attempts: int = 3, **fields: Any) -> dict[str, Any]:
    return {"_id": "j", "product_code": "P1", "product": {"keyword": "widget"}, "attempts": attempts,
            "max_attempts": max_attempts, **fields}  # fmt: skip


async def attempt(job: dict[str, Any], runtime: Runtime) -> dict[str, Any] | JobError:
    try:
        return await work_search(job, runtime)  # type: ignore[arg-type]
    except JobError as error:
        return error


async def test_a_blocked_source_beside_an_empty_one_is_retried_never_reported_as_no_results():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")), Scripted("naver", EMPTY))

    failure = failure_of(await attempt(search_job(attempts=1), runtime))  # type: ignore[arg-type]
    decision = decide(search_job(attempts=1), failure, POLICY, NOW)

    assert decision.outcome is AttemptOutcome.RETRY
    assert failure.error_type == "BLOCKED"
    kept = decision.keep[KEPT]  # type: ignore[index]
    assert list(kept) == ["naver"]  # what the empty source answered is kept; the blocked one runs again
    assert (kept["naver"]["outcome"], kept["naver"]["offers"]) == ("NO_RESULTS", [])


async def test_a_retry_runs_only_the_sources_that_failed_and_completes_the_result():
    coupang, naver = Scripted("coupang", found("coupang", 900)), Scripted("naver", found("naver", 1_000))
    kept = {
        KEPT: {
            "naver": {
                "outcome": "FOUND",
                "count": 1,
                "ms": 5,
                "offers": [found("naver", 1_000).offers[0].as_document()],
            }
        }
    }

    output = await attempt(search_job(attempts=2, **kept), Runtime(coupang, naver))

    assert (coupang.searches, naver.searches) == (1, 0)
    result = output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"], result["lowest"]["price"]) == ("FOUND", True, 900)
    assert "failed_sources" not in result
    assert set(result["sources"]) == {"coupang", "naver"}


async def test_when_attempts_run_out_the_job_is_done_incomplete_naming_the_failed_source():
    runtime = Runtime(
        Scripted("coupang", SourceBlocked("403 Access Denied")),
        Scripted("naver", EMPTY),
    )
    job = search_job(attempts=3, max_attempts=3)

    decision = decide(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DONE
    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"]) == ("INCOMPLETE", False)
    assert result["failed_sources"] == {"coupang": {"type": "BLOCKED", "message": "403 Access Denied"}}


async def test_an_incomplete_search_with_an_eligible_offer_is_found_among_the_sources_that_answered():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")), Scripted("naver", found("naver", 1_000)))
    job = search_job(attempts=3, max_attempts=3)

    decision = decide(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"], result["lowest"]["source"]) == ("FOUND", False, "naver")


async def test_no_source_answering_on_the_last_attempt_is_dead():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")))
    job = search_job(attempts=3, max_attempts=3)

    decision = decide(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DEAD


async def test_a_source_that_cannot_work_is_reported_and_does_not_hold_the_others_back():
    config = PermanentJobError("naver: credentials missing", error_type=JobErrorType.CONFIG)
    runtime = Runtime(Scripted("coupang", found("coupang", 900)), Scripted("naver", config))
    job = search_job(attempts=1, max_attempts=5)

    decision = decide(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DONE  # retrying cannot make naver work: done now, and say so
    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"]) == ("FOUND", False)
    assert result["failed_sources"]["naver"]["type"] == "CONFIG"


@pytest.mark.parametrize(("answer", "outcome"), [(SourceResult(SourceOutcome.NO_RESULTS, []), "NO_RESULTS")])
async def test_no_results_is_only_claimed_when_every_source_answered(answer: SourceResult, outcome: str):
    output = await attempt(search_job(), Runtime(Scripted("naver", answer), Scripted("coupang", answer)))
    assert (output["result"]["outcome"], output["result"]["complete"]) == (outcome, True)  # type: ignore[index]
