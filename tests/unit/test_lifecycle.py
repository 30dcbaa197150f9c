"""The decision after an attempt (`infra.lifecycle`) and the retry policy: pure units, no servers."""

from __future__ import annotations

import ast
import inspect
import re
from datetime import UTC, datetime, timedelta

import pytest

from actors.errors import PermanentJobError, RetryableJobError
from actors.middleware import failure_of
from infra import lifecycle
from infra.jobs import JobRepository
from infra.lifecycle import (
    Failure,
    RetryPolicy,
    attempts_exhausted,
    decide_after_failure,
    decide_after_loss,
    error_document,
)
from schemas.codes import AttemptOutcome, JobErrorType

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
POLICY = RetryPolicy(min_backoff=5.0, max_backoff=600.0)


def job(attempts: int, max_attempts: int = 3) -> dict:
    return {"attempts": attempts, "max_attempts": max_attempts}


def test_a_retryable_failure_with_attempts_left_is_retried_after_the_backoff():
    decision = decide_after_failure(job(1), Failure("BLOCKED", "403"), POLICY, NOW)
    assert decision.outcome is AttemptOutcome.RETRY
    assert NOW + timedelta(seconds=5) <= decision.run_after <= NOW + timedelta(seconds=7.5)
    assert decision.error == {"type": "BLOCKED", "message": "403", "at": NOW}


def test_the_last_attempt_failing_is_dead_even_when_retryable():
    decision = decide_after_failure(job(3), Failure("BLOCKED", "403"), POLICY, NOW)
    assert decision.outcome is AttemptOutcome.DEAD
    assert decision.run_after is None


def test_a_lost_attempt_runs_again_at_once_unless_it_was_the_last():
    again = decide_after_loss(job(1), NOW)
    assert (again.outcome, again.run_after, again.error["type"]) == (AttemptOutcome.LOST, NOW, "WORKER_LOST")
    dead = decide_after_loss(job(3), NOW)
    assert (dead.outcome, dead.run_after, dead.error["type"]) == (AttemptOutcome.DEAD, None, "ATTEMPTS_EXHAUSTED")


def test_a_permanent_failure_is_dead_on_the_first_attempt():
    failure = Failure(JobErrorType.CONFIG, "no credentials", retryable=False)
    decision = decide_after_failure(job(1), failure, POLICY, NOW)
    assert decision.outcome is AttemptOutcome.DEAD
    assert decision.error["type"] == "CONFIG"


@pytest.mark.parametrize(("attempts", "max_attempts", "exhausted"), [(0, 1, False), (1, 1, True), (2, 5, False)])
def test_attempts_are_exhausted_once_the_current_attempt_is_the_last(attempts, max_attempts, exhausted):
    assert attempts_exhausted(job(attempts, max_attempts)) is exhausted


def test_backoff_doubles_per_attempt_within_jitter_and_stays_within_the_bounds():
    failure = Failure("ERROR", "x")
    for attempt, low in [(1, 5), (2, 10), (3, 20), (4, 40)]:
        delay = POLICY.delay_seconds(attempt, failure)
        assert low <= delay <= low * 1.5
    assert POLICY.delay_seconds(30, failure) == 600.0


def test_a_blocked_source_waits_its_factor_longer_and_retry_after_is_honoured_up_to_the_maximum():
    assert 20 <= POLICY.delay_seconds(1, Failure("BLOCKED", "x", backoff_factor=4)) <= 30
    assert POLICY.delay_seconds(1, Failure("RATE_LIMITED", "x", retry_after=42)) == 42
    assert POLICY.delay_seconds(1, Failure("RATE_LIMITED", "x", retry_after=0)) == 5  # never below the minimum
    assert POLICY.delay_seconds(1, Failure("RATE_LIMITED", "x", retry_after=10**6)) == 600


def test_exceptions_become_failures_with_their_type_and_retryability():
    assert failure_of(RetryableJobError("slow", error_type=JobErrorType.TIMEOUT)).retryable
    permanent = failure_of(PermanentJobError("refused", error_type=JobErrorType.DELIVERY_REJECTED))
    assert (permanent.error_type, permanent.retryable) == ("DELIVERY_REJECTED", False)
    crashed = failure_of(KeyError("product"))
    assert (crashed.error_type, crashed.retryable, crashed.message) == ("INTERNAL", True, "KeyError: 'product'")


def test_the_error_document_keeps_a_snapshot_only_when_there_is_one():
    assert error_document("BLOCKED", "403", NOW) == {"type": "BLOCKED", "message": "403", "at": NOW}
    assert error_document("BLOCKED", "403", NOW, snapshot="gridfs:snapshots/1")["snapshot"] == "gridfs:snapshots/1"


def test_an_attempt_that_tried_nothing_is_deferred_even_when_it_was_the_last():
    deferral = Failure("DEFERRED", "coupang: circuit breaker open", retry_after=30, defer={"sources": ["coupang"]})
    decision = decide_after_failure(job(3, max_attempts=3), deferral, POLICY, NOW)
    assert decision.outcome is AttemptOutcome.DEFERRED
    assert NOW + timedelta(seconds=30) <= decision.run_after <= NOW + timedelta(seconds=45)  # spread, never early


def test_a_deferral_comes_back_no_sooner_than_the_minimum_backoff_and_no_later_than_the_maximum():
    soon = Failure("DEFERRED", "rate", retry_after=0.2, defer={})
    assert 5 <= POLICY.defer_seconds(soon) <= 7.5
    assert POLICY.defer_seconds(Failure("DEFERRED", "open", retry_after=3600, defer={})) == 600


def methods_ending_a_job() -> set[str]:
    """The JobRepository methods that write `_ending` (DONE or DEAD), read from their source."""
    repository = ast.parse(inspect.getsource(JobRepository)).body[0]
    assert isinstance(repository, ast.ClassDef)
    return {
        method.name
        for method in repository.body
        if isinstance(method, ast.AsyncFunctionDef)
        for call in ast.walk(method)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "_ending"
    }


def test_every_path_that_ends_a_job_has_its_row_in_the_lifecycle_docstring():
    # "Who can make a job DEAD" is answered by infra/lifecycle.py's table only while no ending is left out of it.
    ending = methods_ending_a_job()
    assert {"complete", "kill", "recover_lost", "kill_dead_lettered"} <= ending
    rows = re.findall(r"^ {4}(?:DONE|DEAD) +(\w+)", lifecycle.__doc__ or "", re.MULTILINE)
    assert set(rows) == ending
