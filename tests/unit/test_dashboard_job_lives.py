"""What an operator missed in the dashboard's first hour (issue 25), in the plain functions behind the
job page: a job's attempts by life, what a waiting job does next and why, and numbers, lists and durations
written for people."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from infra.clock import utcnow
from infra.waiting import waiting
from service.ui.reads import duration, listing, lives, number
from tests.stored_jobs import DEAD

# Re-drives: who and when, on the job document and in the API.


def attempt(number: int, outcome: str = "RETRY") -> dict[str, Any]:
    return {"attempt": number, "outcome": outcome}


def test_attempts_are_grouped_per_life_where_their_numbers_start_again():
    at = utcnow()
    redriven = {
        "status": "DONE",
        "attempts": 1,
        "redrives": 1,
        "history": [attempt(1), attempt(2, "DEAD"), attempt(1, "DONE")],
        "redrive_history": [{"at": at, "by": "ops"}],
    }
    just_redriven = redriven | {"status": "PENDING", "attempts": 0, "history": [attempt(1), attempt(2, "DEAD")]}
    running_again = just_redriven | {"status": "RUNNING", "attempts": 1}

    grouped = lives(redriven)
    assert [(life.number, len(life.attempts)) for life in grouped] == [(1, 2), (2, 1)]
    assert (grouped[0].redrive, grouped[1].redrive) == (None, {"at": at, "by": "ops"})
    assert [(life.number, len(life.attempts)) for life in lives(just_redriven)] == [(1, 2), (2, 0)]
    assert [(life.number, len(life.attempts)) for life in lives(running_again)] == [(1, 2), (2, 0)]
    assert [(life.number, len(life.attempts)) for life in lives({"status": "DEAD", **DEAD})] == [(1, 2)]


def test_a_life_whose_attempts_were_cut_from_history_is_shown_empty_and_the_newest_keep_theirs():
    # Re-driven twice; `history` keeps the newest 20, and they all belong to the last two lives.
    history = [attempt(n) for n in range(5, 8)] + [attempt(1), attempt(2, "DONE")]
    job = {"status": "DONE", "attempts": 2, "redrives": 2, "history": history}
    assert [(life.number, len(life.attempts)) for life in lives(job)] == [(1, 0), (2, 3), (3, 2)]


# What happens next.


def test_a_pending_job_waits_for_its_retry_or_its_deferral_and_says_why():
    now = utcnow()
    retry = {
        "status": "PENDING",
        "attempts": 1,
        "run_after": now + timedelta(seconds=40),
        "last_error": {"type": "BLOCKED", "message": "coupang answered 403"},
    }
    deferred = {
        "status": "PENDING",
        "attempts": 0,
        "run_after": now + timedelta(seconds=9),
        "deferred": {
            "sources": ["coupang"],
            "reason": "coupang's circuit breaker is open",
            "until": now + timedelta(seconds=9),
        },
    }

    waits = waiting(retry, now)
    assert waits is not None
    assert (waits.kind, waits.until) == ("retry", retry["run_after"])
    assert waits.why == "BLOCKED: coupang answered 403"
    defers = waiting(deferred, now)
    assert defers is not None
    assert (defers.kind, defers.sources) == ("deferred", ["coupang"])
    assert defers.why == "coupang's circuit breaker is open"
    assert waiting(retry | {"run_after": now - timedelta(seconds=1)}, now) is None  # due: runs when a worker is free
    assert waiting(retry | {"status": "RUNNING"}, now) is None


# Formatting.
def test_numbers_lists_and_durations_are_written_for_people():
    assert [number(1_009_000), number(16290), number(None), number(2.0)] == ["1,009,000", "16,290", "", "2"]
    assert [listing(["coupang", "naver"]), listing(None), listing("static")] == ["coupang, naver", "", "static"]
    assert [duration(timedelta(seconds=s)) for s in (5, 125, 7260, 90000)] == [
        "5 s",
        "2 min 05 s",
        "2 h 01 min",
        "1 d 1 h",
    ]
