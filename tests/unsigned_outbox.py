"""An outbox pool that would deliver unsigned: LPS_OUTBOX_URL without LPS_OUTBOX_SECRET."""

from __future__ import annotations

import os

from infra.settings import Settings

UNSIGNED = "http://127.0.0.1:9/results"


def unsigned_env(settings: Settings) -> dict[str, str]:
    unsigned = settings.with_overrides(outbox_url=UNSIGNED, outbox_secret="")
    return {key: value for key, value in os.environ.items() if key != "LPS_OUTBOX_SECRET"} | unsigned.to_env()
