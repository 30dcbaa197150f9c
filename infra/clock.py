"""The one clock: every timestamp LPS stores is an aware UTC datetime from here."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)
