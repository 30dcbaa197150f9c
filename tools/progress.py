"""The progress `lps submit` shows while it enqueues and waits: a line redrawn in place (or logged), a bar of the
jobs ended, and why those not running yet wait."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any, TextIO

from infra.waiting import waiting
from schemas.codes import JobStatus


class ProgressLine:
    """A progress line: redrawn in place on a terminal; elsewhere (a log, CI, a pipe) one line per change, at most
    one every `every` seconds, never hundreds of `\r` segments on one line."""

    def __init__(self, stream: TextIO, *, every: float = 5.0) -> None:
        self._stream = stream
        self._terminal = stream.isatty()
        self._every = every
        self._shown = ""
        self._shown_at = float("-inf")
        self._latest = ""

    def update(self, text: str) -> None:
        self._latest = text
        if self._terminal:
            self._stream.write(f"\r{text}")
        elif text != self._shown and time.monotonic() - self._shown_at >= self._every:
            self._stream.write(f"{text}\n")
            self._shown, self._shown_at = text, time.monotonic()
        else:
            return
        self._stream.flush()

    def close(self) -> None:
        """The last state is always shown, and a terminal's line ended."""
        if self._terminal:
            self._stream.write("\n")
        elif self._latest and self._latest != self._shown:
            self._stream.write(f"{self._latest}\n")
        self._stream.flush()


def progress_bar(done: int, total: int) -> str:
    width = 30
    filled = width * done // max(total, 1)
    return f"  {done}/{total} ended [{'#' * filled}{'.' * (width - filled)}]"


#: Reasons a progress line names at most (the commonest first), and how long each may be.
WAITING_REASONS = 3
REASON_WIDTH = 60


def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def waiting_note(jobs: Iterable[dict[str, Any]], now: datetime) -> str:
    """Why the PENDING jobs among `jobs` (as the API answers them) do not run yet, as the dashboard's job page says
    it: `waiting: 3 deferred (coupang: circuit breaker OPEN for 60s), 1 in backoff after BLOCKED`; "" when none
    waits (those due only wait for a free worker)."""
    reasons: Counter[str] = Counter()
    for job in jobs:
        if job.get("status") != JobStatus.PENDING.name:
            continue
        deferred = job.get("deferred") or None
        parsed = job | {"run_after": _when(job.get("run_after"))}
        if deferred:
            parsed["deferred"] = deferred | {"until": _when(deferred.get("until"))}
        found = waiting(parsed, now)
        if found is not None and found.kind == "deferred":
            reasons[f"deferred ({found.why[:REASON_WIDTH]})"] += 1
        elif found is not None:
            reasons[f"in backoff after {found.error_type or 'a failed attempt'}"] += 1
        elif parsed["run_after"] is not None and parsed["run_after"] > now:
            reasons["not before its run_after"] += 1
    if not reasons:
        return ""
    shown = reasons.most_common(WAITING_REASONS)
    others = sum(reasons.values()) - sum(count for _, count in shown)
    note = ", ".join(f"{count} {reason}" for reason, count in shown)
    return f" waiting: {note}" + (f", {others} for other reasons" if others else "")
