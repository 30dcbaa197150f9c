"""Settings whose broker URL proposes a 2-second heartbeat: RabbitMQ closes a connection that misses two (4 s of
silence), so idling past that shows what a minute-long heartbeat shows after a few minutes."""

from __future__ import annotations

import pytest

from infra.settings import Settings

#: Seconds of idling: past the 4 s of silence after which RabbitMQ closes a connection with a 2 s heartbeat.
IDLE = 6.0


def with_heartbeat(amqp_url: str, seconds: int) -> str:
    return f"{amqp_url}{'&' if '?' in amqp_url else '?'}heartbeat={seconds}"


@pytest.fixture
def short_heartbeat(settings: Settings) -> Settings:
    return settings.with_overrides(
        amqp_url=with_heartbeat(settings.amqp_url, 2),
        retry_min_backoff=0.2,
        retry_max_backoff=0.5,
        search_max_attempts=2,
    )
