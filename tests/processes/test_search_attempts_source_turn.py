"""A search attempt whose source's turn did not come (sources stand in memory): the job is deferred without
counting the attempt, and what the other sources answered is kept."""

from __future__ import annotations

from datetime import timedelta

import pytest

from actors.middleware import failure_of
from infra.lifecycle import decide_after_failure
from schemas.codes import AttemptOutcome
from schemas.offers import SOURCES_ANSWERED
from tests.search_attempt_fakes import NOW, POLICY, Gates, Runtime, Scripted, attempt, found, search_job


@pytest.mark.processes
async def test_a_source_whose_turn_did_not_come_defers_the_job_without_counting_the_attempt_and_keeps_the_answer():
    coupang, naver = Scripted("coupang", found("coupang", 900)), Scripted("naver", found("naver", 1_000))
    runtime = Runtime(coupang, naver, gates=Gates(defer={"coupang": 40.0}))
    job = search_job(attempts=3, max_attempts=3)  # the last attempt: a failure here would end the job

    failure = failure_of(await attempt(job, runtime))  # type: ignore[arg-type]
    decision = decide_after_failure(job, failure, POLICY, NOW)

    assert coupang.searches == 0  # never started: no browser page taken while it waited
    assert decision.outcome is AttemptOutcome.DEFERRED
    assert failure.defer == {"sources": ["coupang"], "reason": "coupang: rate 1/m reached (a turn in 40.0s)"}
    assert decision.run_after is not None
    assert decision.run_after >= NOW + timedelta(seconds=10)
    assert list(decision.keep[SOURCES_ANSWERED]) == ["naver"]  # type: ignore[index]
    assert runtime.gates.released == [("naver", False)]
