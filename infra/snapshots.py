"""What a worker saw when a page went wrong (HTML and a screenshot), kept in GridFS for a person to look at.

GridFS keeps snapshots beside the jobs, on every machine of a deployment, with no shared disk. A job's
`last_error.snapshot` holds the reference `gridfs:snapshots/<id>`; `lps snapshot <id>` writes the files out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bson import ObjectId
from gridfs import AsyncGridFSBucket
from gridfs.errors import NoFile
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

    async def file(self, snapshot_id: ObjectId, kind: str) -> bytes | None:
        """One file of a snapshot (`kind`: html or png), or None when it has none."""
        try:
            stream = await self._bucket.open_download_stream_by_name(f"{snapshot_id}.{kind}")
        except NoFile:
            return None
        return await stream.read()

    async def files(self, snapshot_id: ObjectId) -> dict[str, bytes]:
        """{filename: content} of one snapshot."""
        found: dict[str, bytes] = {}
        async for grid_out in self._bucket.find({"metadata.snapshot_id": snapshot_id}):
            found[grid_out.filename] = await grid_out.read()
        return found


#: What a snapshot holds, by the name its files end in: content types safe to serve from the gateway's origin.
#: The HTML is served as text, never as a page: a scraped page must not run as the gateway's own.
SNAPSHOT_FILES = {"html": "text/plain", "png": "image/png"}


def snapshot_ids(job: dict[str, Any]) -> list[str]:
    """The ids of the snapshots a job's errors name (its last error and each attempt's), oldest first, once each."""
    errors = [entry.get("error") or {} for entry in job.get("history") or []] + [job.get("last_error") or {}]
    references = [error.get("snapshot", "") for error in errors]
    return list(
        dict.fromkeys(ref.removeprefix(REFERENCE_PREFIX) for ref in references if ref.startswith(REFERENCE_PREFIX))
    )
