"""When a failed attempt runs again: exponential backoff with jitter, bounded by the settings."""

from __future__ import annotations

import random
from dataclasses import dataclass

from actors.errors import RetryableJobError
from infra.settings import Settings


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    min_backoff: float
    max_backoff: float

    @classmethod
    def from_settings(cls, settings: Settings) -> RetryPolicy:
        return cls(settings.retry_min_backoff, settings.retry_max_backoff)

    def delay_seconds(self, attempt: int, error: RetryableJobError) -> float:
        """Attempt n waits min·2^(n-1)·(1..1.5) times the error's factor, never outside [min, max].

        A Retry-After from the other side is honoured (up to the maximum).
        """
        if error.retry_after is not None:
            return min(self.max_backoff, max(self.min_backoff, error.retry_after))
        exponential = self.min_backoff * 2 ** max(attempt - 1, 0)
        jittered = random.uniform(exponential, exponential * 1.5)
        return min(self.max_backoff, jittered * max(error.backoff_factor, 1.0))

    def prepare(self, attempt: int, error: RetryableJobError) -> RetryableJobError:
        """Give the error the delay Dramatiq's Retries middleware will wait."""
        error.delay = int(self.delay_seconds(attempt, error) * 1000)
        return error
