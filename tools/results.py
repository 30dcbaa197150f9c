"""What became of each product, as the CLI reports it: one row per job (the table of `lps submit` and `lps dev
--demo`, the results file of `--out`) and a one-line summary by outcome."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from schemas.codes import JobStatus

#: The table `lps submit` (and `lps dev --demo`) prints: one line per product, status last.
RESULT_COLUMNS = (
    "product_code", "lowest_price", "source", "shipping", "outcome", "complete", "error_type", "delivery_status",
    "status",
)  # fmt: skip
#: The results file (`lps submit --out`, CSV or JSON): everything the table has, and the offer and error.
FILE_COLUMNS = (
    "product_code", "job_id", "status", "outcome", "complete", "lowest_price", "source", "title", "url", "shipping",
    "doubts", "delivery_status", "error_type", "error_message",
)  # fmt: skip


def succeeded(job: dict[str, Any]) -> bool:
    """DONE, and every requested source answered (`result.complete`)."""
    return job.get("status") == JobStatus.DONE.name and (job.get("result") or {}).get("complete") is True


def result_row(job: dict[str, Any], delivery: dict[str, Any] | None = None) -> dict[str, Any]:
    """One product's answer, columns named for what they are (FILE_COLUMNS).

    `shipping` is the winning offer's shipping badge (ROCKET, GENERAL, …); `doubts` what the result says leaves that
    offer in doubt (`result.doubts`, joined by "; "); `delivery_status` is the status of the
    OUTBOX job that sends the result to the back office (DONE: delivered). The error is the job's last one, shown
    unless the job succeeded completely (a retried success keeps its old `last_error`).
    """
    result = job.get("result") or {}
    lowest = result.get("lowest") or {}
    error = {} if succeeded(job) else job.get("last_error") or {}
    return {
        "product_code": job.get("product_code"),
        "job_id": job.get("job_id"),
        "status": job.get("status"),
        "outcome": result.get("outcome"),
        "complete": result.get("complete"),
        "lowest_price": lowest.get("price"),
        "source": lowest.get("source"),
        "title": lowest.get("title"),
        "url": lowest.get("url"),
        "shipping": lowest.get("delivery"),
        # What leaves the lowest in doubt (`result.doubts`), for the person acting on the file: one line in a CSV cell.
        "doubts": "; ".join(result.get("doubts") or []) or None,
        "delivery_status": (delivery or {}).get("status"),
        "error_type": error.get("type"),
        "error_message": error.get("message"),
    }


def summarize(jobs: Sequence[dict[str, Any]]) -> str:
    """One line by outcome: `5 jobs: DONE 3 (FOUND 2, NO_MATCH 1), DONE incomplete 1 (FOUND 1), DEAD 1 (BLOCKED 1)`."""
    done = JobStatus.DONE.name
    incomplete = f"{done} incomplete"
    groups: dict[str, Counter[str | None]] = {}
    for job in jobs:
        status = job.get("status") or "?"
        result = job.get("result") or {}
        if status == done:
            group, detail = (done if succeeded(job) else incomplete), result.get("outcome")
        else:
            group, detail = status, (job.get("last_error") or {}).get("type")
        groups.setdefault(group, Counter())[detail] += 1
    order = [done, incomplete, JobStatus.DEAD.name, JobStatus.RUNNING.name, JobStatus.PENDING.name]
    parts = []
    for group in sorted(groups, key=lambda name: order.index(name) if name in order else len(order)):
        details = ", ".join(f"{name} {count}" for name, count in groups[group].most_common() if name)
        parts.append(f"{group} {groups[group].total()}" + (f" ({details})" if details else ""))
    return f"{len(jobs)} job(s): " + ", ".join(parts) if parts else "no jobs"


def write_results(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """The results as JSON (a list of objects) or CSV (FILE_COLUMNS; booleans as true/false)."""
    if path.suffix.lower() == ".json":
        payload = [{column: row.get(column) for column in FILE_COLUMNS} for row in rows]
        path.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=FILE_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {key: str(value).lower() if isinstance(value, bool) else value for key, value in row.items()}
            )
