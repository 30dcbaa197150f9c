"""What a worker saw when a page went wrong (HTML and a screenshot), kept in GridFS for a person to look at.

GridFS keeps snapshots beside the jobs, on every machine of a deployment, with no shared disk. A job's
`last_error.snapshot` holds the reference `gridfs:snapshots/<id>`; `lps snapshot <id>` writes the files out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bson import ObjectId
from gridfs import AsyncGridFSBucket
from pymongo.asynchronous.database import AsyncDatabase

BUCKET = "snapshots"
REFERENCE_PREFIX = f"gridfs:{BUCKET}/"


class SnapshotStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self._bucket = AsyncGridFSBucket(db, bucket_name=BUCKET)

    async def save(
        self, *, source: str, url: str, reason: str, html: str, screenshot: bytes | None, at: datetime
    ) -> str:
        """Store the page's HTML (and screenshot); return the reference for `last_error.snapshot`."""
        snapshot_id = ObjectId()
        metadata: dict[str, Any] = {
            "snapshot_id": snapshot_id,
            "source": source,
            "url": url,
            "reason": reason,
            "at": at,
        }
        await self._bucket.upload_from_stream(f"{snapshot_id}.html", html.encode(), metadata=metadata)
        if screenshot:
            await self._bucket.upload_from_stream(f"{snapshot_id}.png", screenshot, metadata=metadata)
        return f"{REFERENCE_PREFIX}{snapshot_id}"

    async def files(self, snapshot_id: ObjectId) -> dict[str, bytes]:
        """{filename: content} of one snapshot."""
        found: dict[str, bytes] = {}
        async for grid_out in self._bucket.find({"metadata.snapshot_id": snapshot_id}):
            found[grid_out.filename] = await grid_out.read()
        return found
