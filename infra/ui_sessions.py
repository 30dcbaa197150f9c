"""Dashboard sign-ins, kept server-side in MongoDB (`ui_sessions`), so the browser never holds the API key.

A sign-in stores one document under the SHA-256 of a random token and gives the browser only the token: whoever
reads the collection cannot sign in with what is stored, and a cookie stolen from a browser is not an API key. A
session ends at sign-out (its document is deleted), at `expires_at` (a TTL index removes it; a lookup never
accepts one past it either), and when its key leaves LPS_API_KEYS (the dashboard checks the name on every request).
Every gateway reads the same collection, so a session started at one is good at all of them. Each lookup is one
read by `_id`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from pymongo import ASCENDING, IndexModel
from pymongo.asynchronous.database import AsyncDatabase

UI_SESSIONS = "ui_sessions"
UI_SESSIONS_EXPIRY = "expires_at_ttl"


def ui_session_indexes() -> list[IndexModel]:
    """Sessions expire at `expires_at`: a TTL index with no delay of its own."""
    return [IndexModel([("expires_at", ASCENDING)], name=UI_SESSIONS_EXPIRY, expireAfterSeconds=0)]


def _stored_id(token: str) -> str:
    # surrogatepass: a cookie may hold any code point; none may make the lookup raise.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class UiSession:
    """A signed-in dashboard: the API key's name (never the key) and until when it holds."""

    token: str
    key_name: str
    expires_at: datetime


class UiSessions:
    def __init__(self, database: AsyncDatabase) -> None:
        self._sessions = database[UI_SESSIONS]

    async def start(self, key_name: str, *, now: datetime, lifetime: timedelta) -> UiSession:
        """A new session for the key named `key_name` (a sign-in never reuses an earlier one)."""
        session = UiSession(secrets.token_urlsafe(32), key_name, now + lifetime)
        document = {"_id": _stored_id(session.token), "key": key_name, "created_at": now, "expires_at": now + lifetime}
        await self._sessions.insert_one(document)
        return session

    async def find(self, token: str, *, now: datetime) -> UiSession | None:
        """The live session of this token, or None (unknown, ended, or expired and not yet removed)."""
        found = await self._sessions.find_one({"_id": _stored_id(token), "expires_at": {"$gt": now}})
        return UiSession(token, found["key"], found["expires_at"]) if found else None

    async def end(self, token: str) -> None:
        """Sign-out: the token is worth nothing from now on, at every gateway."""
        await self._sessions.delete_one({"_id": _stored_id(token)})
