"""An outbox pool refuses to sign deliveries with an empty key: only a pool that would deliver unsigned is
stopped at boot."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from dramatiq.brokers.stub import StubBroker

from actors.worker import SETUP_FAILED, UnsignedOutboxRefused
from infra.settings import Settings
from schemas.codes import JobType
from tests.unsigned_outbox import UNSIGNED


@pytest.mark.parametrize(
    ("queues", "allow_unsigned", "boots"),
    [
        ("search", False, True),  # the search pool never signs: no secret needed
        ("outbox", True, True),  # LPS_OUTBOX_ALLOW_UNSIGNED=1: delivers unsigned, as asked
        ("outbox", False, False),
        ("all", False, False),  # a pool that consumes every declared queue, the outbox's among them
    ],
)
def test_only_a_pool_that_would_deliver_unsigned_is_stopped_at_boot(queues: str, allow_unsigned: bool, boots: bool):
    """What the refusing pool above and a starting pool have in common, without starting one: the check at the
    worker's boot, given the queues the pool consumes (`lps worker` asks the same of its pool's queues)."""
    settings = Settings(outbox_url=UNSIGNED, outbox_secret="", outbox_allow_unsigned=allow_unsigned)
    broker = StubBroker()
    whitelist = settings.job(JobType[queues.upper()]).queues if queues != "all" else None
    worker = SimpleNamespace(consumer_whitelist=whitelist)
    middleware = UnsignedOutboxRefused(settings)
    if boots:
        middleware.before_worker_boot(broker, worker)  # type: ignore[arg-type]
    else:
        with pytest.raises(SystemExit) as refused:
            middleware.before_worker_boot(broker, worker)  # type: ignore[arg-type]
        assert refused.value.code == SETUP_FAILED
    assert settings.refuses_unsigned_outbox(whitelist) is not boots
