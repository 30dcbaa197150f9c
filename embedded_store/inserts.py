"""Inserts whose cost does not grow with the collection (both engines).

The wire server runs every document of an `insert` command through `insert_one`, and a
one-document insert asks the engine to scan the collection for an equal `_id` (`scan_payload_id=True`). The memory
engine compares `bson_equality_key` of the new `_id` with that of every stored document
(`MemoryEngine._ensure_unique_indexes`); the SQLite engine loads and decodes every stored document
(`SQLiteEngine._validate_document_against_unique_indexes`). So every insert over the wire is O(stored
documents) and a run of them quadratic; mongoeco's in-process `insert_many` of several documents skips the scan.
The scan is there for numeric `_id`s (1, 1.0 and Decimal128("1") are one key to MongoDB but three storage keys)
and adds nothing for a `str` or an `ObjectId`: two of those are equal in BSON exactly when their storage keys
are equal, and the storage key is looked up anyway, in the same call (`check_id_storage`, or
`skip_id_check=False`) and, for inserts, before it (plus SQLite's primary key). So the scan is turned off for
those two types only, and only when the keyed check runs in the same call; other `_id`s keep mongoeco's
behaviour. Unique secondary indexes (one active SEARCH job per product) are checked after this, untouched.

The memory engine's part is here (`FlatInsertMemoryEngine`, the base of every patched memory engine); the SQLite
engine's is in `embedded_store.sqlite`.
"""

from __future__ import annotations

from typing import Any

from embedded_store._mongoeco import (
    MemoryEngine,
    ObjectId,
)

#: Exact types: mongoeco's codec turns every ObjectId into its own ObjectId before the engine sees it,
#: and the SQLite engine's storage key names the type, so a subclass or bson's own class is left to mongoeco.
_KEYED_ID_TYPES = (str, ObjectId)


def _id_is_keyed(document: dict[str, Any]) -> bool:
    return "_id" in document and type(document["_id"]) in _KEYED_ID_TYPES


class FlatInsertMemoryEngine(MemoryEngine):
    def _ensure_unique_indexes(
        self,
        db_name: str,
        coll_name: str,
        candidate: dict[str, Any],
        *,
        check_id_storage: bool = False,
        scan_payload_id: bool = False,
        **options: Any,
    ) -> None:
        if scan_payload_id and check_id_storage and _id_is_keyed(candidate):
            scan_payload_id = False
        super()._ensure_unique_indexes(
            db_name,
            coll_name,
            candidate,
            check_id_storage=check_id_storage,
            scan_payload_id=scan_payload_id,
            **options,
        )
