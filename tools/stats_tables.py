"""What `lps stats` prints: the gateway's counts (jobs, queues, the reconciler's totals) as plain tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infra.display import format_table
from schemas.codes import JobStatus

#: What the reconciler counts, in the order of its pass, and what each means.
RECONCILER_ACTIONS = {
    "republished_unconfirmed": "PENDING jobs the broker never confirmed, published",
    "republished_lost": "PENDING jobs long past run_after (message lost), published again",
    "recovered": "RUNNING jobs whose worker stopped, PENDING again",
    "recovered_dead": "RUNNING jobs whose worker stopped in their last attempt, DEAD",
    "dead_lettered": "dead letters (.XQ) whose job was still active, now DEAD",
    "dead_letters_of_ended_jobs": "dead letters (.XQ) of jobs already DONE or DEAD, acknowledged",
    "dead_letters_kept": "dead letters (.XQ) naming no job, kept in dead_letters",
    "outbox_created": "DONE searches without a delivery job, given one",
}


def format_stats(body: Mapping[str, Any]) -> str:
    """`lps stats`: jobs by type and status, the queues, and the reconciler's totals, as plain tables."""
    by_type: Mapping[str, Mapping[str, int]] = body.get("by_type") or {}
    delayed: Mapping[str, int] = body.get("delayed") or {}
    statuses = [status.name for status in JobStatus]
    # `delayed` counts PENDING jobs, so its column stands beside PENDING (the first status).
    pending, *later = statuses
    job_rows = [
        {"jobs": job_type, **counts, "delayed": delayed.get(job_type)} for job_type, counts in sorted(by_type.items())
    ]
    sections = [
        format_table(job_rows, ("jobs", pending, "delayed", *later)),
        "delayed: PENDING jobs waiting for a retry's backoff to end (run_after in the future, counted in MongoDB)",
        f"DONE and DEAD: every job that ended before {body.get('counted_until') or '-'} (a re-driven job counts "
        "again when it ends again)",
    ]
    if not by_type:
        sections[0] = format_table([{"jobs": "all", **(body.get("stats") or {})}], ("jobs", *statuses))
    queues: Mapping[str, Mapping[str, int]] | None = body.get("queues")
    if queues:
        queue_rows = [
            {"queue": name, "ready": info.get("messages"), "consumers": info.get("consumers"), "dead": info.get("dead")}
            for name, info in sorted(queues.items())
        ]
        sections += [
            "",
            format_table(queue_rows, ("queue", "ready", "consumers", "dead")),
            "ready: messages waiting for a worker; consumers 0: no pool is running; dead: dead letters in .XQ",
        ]
    else:
        sections += ["", f"queues: {body.get('message') or 'unknown'}"]
    totals: Mapping[str, int] = body.get("reconciler") or {}
    names = [*RECONCILER_ACTIONS, *sorted(set(totals) - set(RECONCILER_ACTIONS))]
    reconciler_rows = [
        {"reconciler": name, "total": int(totals.get(name, 0)), "meaning": RECONCILER_ACTIONS.get(name, "")}
        for name in names
    ]
    sections += ["", format_table(reconciler_rows, ("reconciler", "total", "meaning"))]
    return "\n".join(sections)
