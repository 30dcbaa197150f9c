"""The patched SQLite engine (`lps mongo --data FILE`; issue 24): changes 4 and 5.

Besides the `_id` scan (`embedded_store.inserts`), two costs of every write grew
with the collection, both lookups SQLite had no index for; the patch adds the indexes (`lps_*`, in the file, made
once at start-up and after each `createIndexes`), never changing a query or a result:

4. Before a write under a unique index, mongoeco asks whether any stored document holds an array in the index's
   field (`SQLiteEngine._field_is_top_level_array_in_collection`, and `_field_traverses_array_in_collection` for
   the parents of a dotted field): `json_type(document, '$.field') = 'array'` over every stored document. Its
   answer is cached, but the cache is dropped on every write, so in practice it ran on every insert (~7 ms at
   3,000 jobs, 0.1 s at 30,000). An expression index on `(db_name, coll_name, json_type(document, <path>))` for
   each such path (`_ensure_lookup_indexes`, `array_probe_paths`) answers the same query, which SQLite matches to
   the index because the path literal is written as mongoeco writes it (`_json_path_literal`).
5. Every write of a document deletes its TTL entries by `(collection_id, storage_key)`
   (`_replace_ttl_entries_for_document`); the table's key is `(collection_id, index_name, storage_key)`, so that
   read every TTL entry of the collection (every finished job is in the retention index).
   `lps_ttl_index_entries_by_document` is the index mongoeco already has for its scalar entries.

Not worked around: mongoeco's query planner on SQLite runs more such probes over every stored document when it plans a
query (`_field_contains_tagged_value_type_in_collection` with a bound path that no expression index can match,
`_field_is_top_level_array_in_collection` for each filtered field), again after every write: an update by `_id`
(a claim) costs ~30 ms at 1,000 jobs and ~0.7 s at 30,000 (`python -m bench.store_flatness`). The SQLite
engine's reads are mongoeco's too.


Its inserts skip the `_id` scan as the memory engine's do (`embedded_store.inserts`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, override

from embedded_store._mongoeco import (
    SQLiteEngine,
    json_path_for_field,
    path_array_prefixes,
    sqlite_write_scope,
)
from embedded_store.inserts import _id_is_keyed

#: What mongoeco reads by `(collection_id, storage_key)` on every write of a document, and has no index for: its TTL
#: entries (`SQLiteEngine._replace_ttl_entries_for_document`; the table's key starts with the TTL index's name).
TTL_ENTRIES_BY_DOCUMENT = (
    "CREATE INDEX IF NOT EXISTS lps_ttl_index_entries_by_document ON ttl_index_entries (collection_id, storage_key)"
)
#: Prefix of the SQLite expression indexes this module adds to mongoeco's `documents` table (see the docstring).
ARRAY_PROBE_INDEX_PREFIX = "lps_json_type_"


def _json_path_literal(field: str) -> str:
    """The SQL literal of a field's JSON path, written exactly as mongoeco writes it into its collection probes
    (`SQLiteEngine._field_is_top_level_array_in_collection`), so that SQLite matches an index on it."""
    return "'" + json_path_for_field(field).replace("'", "''") + "'"


def array_probe_paths(fields: Iterable[str]) -> list[str]:
    """The paths whose `json_type` mongoeco asks about every stored document before a write under a unique index on
    `fields`: each field (`top_level_array`) and the parents of a dotted one (`traverses_array`)."""
    paths: dict[str, None] = {}
    for field in fields:
        paths[field] = None
        paths.update(dict.fromkeys(path_array_prefixes(field)))
    return list(paths)


class FlatInsertSQLiteEngine(SQLiteEngine):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Paths whose expression index is known to exist in the file (created, or found, by this process).
        self._probed_paths: set[str] = set()
        self._ttl_entries_indexed = False

    def _validate_document_against_unique_indexes(
        self,
        db_name: str,
        coll_name: str,
        document: dict[str, Any],
        *,
        skip_id_check: bool = False,
        scan_payload_id: bool = False,
        **options: Any,
    ) -> None:
        if scan_payload_id and not skip_id_check and _id_is_keyed(document):
            scan_payload_id = False
        super()._validate_document_against_unique_indexes(
            db_name,
            coll_name,
            document,
            skip_id_check=skip_id_check,
            scan_payload_id=scan_payload_id,
            **options,
        )

    @override
    def _connect_sync(self) -> None:
        super()._connect_sync()
        self._ensure_lookup_indexes()

    @override
    def _create_index_sync(self, *args: Any, **kwargs: Any) -> str:
        name = super()._create_index_sync(*args, **kwargs)
        self._ensure_lookup_indexes()
        return name

    def _ensure_lookup_indexes(self) -> None:
        """The SQLite indexes of changes 4 and 5: TTL entries by document, and an expression index
        on `json_type(document, <path>)` for each path of a unique index's fields (in every database and collection
        of the file), in a write of their own. Idempotent; only what this process has not made or found yet."""
        with self._lock:
            conn = self._require_connection()
            statements = [] if self._ttl_entries_indexed else [TTL_ENTRIES_BY_DOCUMENT]
            rows = conn.execute("SELECT fields FROM indexes WHERE unique_flag = 1").fetchall()
            fields = [field for (encoded,) in rows for field in json.loads(encoded)]
            paths = [path for path in array_probe_paths(fields) if path not in self._probed_paths]
            for path in paths:
                name = ARRAY_PROBE_INDEX_PREFIX + hashlib.sha256(path.encode()).hexdigest()[:16]
                statements.append(
                    f"CREATE INDEX IF NOT EXISTS {name} "
                    f"ON documents (db_name, coll_name, json_type(document, {_json_path_literal(path)}))"
                )
            if not statements:
                return
            with (
                self._bind_connection(conn),
                sqlite_write_scope(
                    conn,
                    begin_write=lambda current: self._begin_write(current, None),
                    commit_write=lambda current: self._commit_write(current, None),
                    rollback_write=lambda current: self._rollback_write(current, None),
                ),
            ):
                for statement in statements:
                    conn.execute(statement)
            self._ttl_entries_indexed = True
            self._probed_paths.update(paths)
