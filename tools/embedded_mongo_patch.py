"""mongoeco's engines, with inserts whose cost does not grow with the collection and, in memory, the job listing's
reads served from LPS's compound indexes.

Verified on mongoeco 4.11.0 only, and pyproject.toml pins exactly that release (and rpds-py, whose map this module
reads, exactly the one it was measured with). On any other mongoeco `create_engine` serves mongoeco's own engines,
unpatched, and logs one warning (`patch_applies`): correct answers, but costs that grow with the collection. Every
change below keeps mongoeco's results, document for document and in the same order; a query that does not fit a
change's preconditions takes mongoeco's own path, unchanged.

Inserts (both engines). The wire server runs every document of an `insert` command through `insert_one`, and a
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

Reads (memory engine only; `lps mongo --data FILE`, the SQLite engine, is left as mongoeco has it). mongoeco's
`MemoryEngine` narrows a query's candidates through an index only for an equality on a single-field index
(`_indexed_candidate_storage_keys_for_plan_locked`); any other query filters every stored document, and a sorted
one then sorts all that match (`scan_find_semantics`: ~9 µs a document, ~450 ms at 50,000 jobs), where MongoDB reads
`created_at_desc`, `status_created_at`, `product_created_at` (infra/mongo.py) in order and stops after the page.
An index's data is a hash map from key tuples (one `bson_equality_key` per field) to storage keys, kept by
`_update_indexes_locked` on every write path (insert, update, replace, delete, TTL purge, inside transactions
through the same views), which computes a document's keys with `_index_keys` when it adds them and again when it
removes them. Three changes:

1. Compound keys name every value of an array field (`_index_keys`), as mongoeco's single-field keys and its
   unique checks (`_unique_index_keys`) already do; mongoeco records only an array's first value there (the array
   itself), so a document whose `status` is ["A"] would be missing under "A". Adding and removing both go through
   `_index_keys`, so they stay symmetric; a document without arrays gets the very key tuple mongoeco gives it.
2. An equality on the leading field(s) of a plain compound index narrows the candidates to that index's entries
   under that prefix (`_indexed_candidate_storage_keys_for_plan_locked`), when mongoeco found no single-field index
   itself. Only for top-level fields and `str` values: a document matches `{f: "v"}` exactly when `f` is "v" or an
   array holding "v", that is when one of its keys has ("str", "v") there (change 1). The candidates go through
   mongoeco's code from there as a single-field bucket would (natural order, the full filter applied to each).
3. A find sorted by the fields of a plain index that follow such an equality prefix (or by all of them, with no
   equality), in one direction, with a limit, no collation, no hint, no text query, where mongoeco itself would scan
   the collection (no `_id` lookup, no single-field equality), reads the index's key tuples in sort order and
   fetches documents bucket by bucket, in storage order within a bucket, through mongoeco's filter and its
   skip/limit/projection stage, until the page is full (`scan_find_semantics`). The keys come from the index's kept
   order (change 7) a run at a time: a page costs its own keys and the documents it examines, not the index.
   It gives mongoeco's order because every sort field's key, over all the selected entries, has the same one of
   three tags whose values compare as mongoeco's sort compares the stored values: "str" (Python `<`, which is what
   `core.sorting` uses for two `str`s), "objectid" (the normalized ObjectId, as `compare_values` normalizes) and
   "datetime" (the naive UTC millisecond `normalize_utc_bson_datetime`, which is also what mongoeco's codec stores).
   A missing field (None), null, a number, an array, a document, or two types in one field: mongoeco's path. Two
   distinct key tuples under one prefix then never tie, and one tuple's documents (ties) come in storage order, as
   mongoeco's stable sort of a full scan leaves them. A document is under one selected tuple only: a second key
   would need an array in a sort field, whose "list" key refuses the shortcut. The walk reads O(1) copies of the
   collection and the index map taken under the collection lock, as mongoeco reads the candidate list it took there.

7. An index's keys in order (`_OrderedKeys`, a `sortedcontainers.SortedKeyList`), kept for every index the changes
   above read. An index's buckets are an immutable rpds HashTrieMap that every write to the index replaces, so an
   order is made for one version of the map and holds while the map holds that version; `_update_indexes_locked`,
   mongoeco's one path for a document's index entries (insert, update, replace, delete, TTL purge), moves it on to the
   next version by the written document's keys that came or went (O(log n) each). Anything else that changes a map
   (an index rebuilt, a transaction's undo) leaves the order behind, and the next read makes it again from the keys
   (O(n log n), once). So the keys under a prefix are a range of the order (changes 2, 2b, 6; with a datetime bound on
   the field after the prefix, a narrower range), a walk reads its keys a run at a time (change 3), and whether its
   sort columns hold one ordered tag is read from counts kept per position, over the whole index. A key with a tag
   that Python cannot order as mongoeco does (an array's "list", a document, a NaN) has no place in an order: while
   an index holds one, its questions are a pass over its listed keys (`_ListedKeys`), as before this change, and the
   documents LPS stores never make one. The walk reads the version of its find, taken under the lock with the
   documents: a run is read without an await in it, and once a write has moved the order on between two runs, the
   rest comes from that version's own keys. tests/test_embedded_mongo_order.py compares every answer of an order with
   the listed keys' as keys come and go and in the middle of a walk; tests/test_embedded_mongo.py counts the keys a
   listing page reads at two sizes while jobs come and go.

The active set (memory engine; issue 24). A backlog is the active set grown to 100,000 PENDING jobs, and mongoeco's
count reads every matching document (~100 µs each over the wire: 2 s for 20,000), as does any find whose only
single-field equality is `active: true` (a single-field index on it would hold the whole backlog). LPS reads the
active set through compound indexes partial on `active: true` (infra/mongo.py `walk_indexes`); two changes use them:

2b. A conjunction of equalities on leading fields of a compound index (`str` or `bool` values, fields that must be
   missing: `$exists: false`, whose key component is None), on a plain index or a partial one whose filter the
   conjunction states too (`_keyed_fields`), narrows the candidates to the keys under that prefix, and, for each
   datetime bound on a later field of the index, to the keys whose component passes it (`_within_bound`; the fields
   in between may hold anything, a key names every field). It is taken when
   it gives fewer candidates than mongoeco's own narrowing. Keys of another type than the bound's stay candidates:
   mongoeco orders values of different types where MongoDB brackets types (`run_after: 1` is `$lt` a date to
   mongoeco), and mongoeco's filter then decides, so its answers are kept. A sorted find that change 3 could walk
   takes 2b's candidates instead when there are few (fewer than the square root of the page x the keys the walk may
   cross, or a tenth of those keys, and at most `CANDIDATES_SORTED`: the delayed jobs of a backlog, which a walk of
   every PENDING job's key may reach only at its far end, not a status's history), and sorts them itself by their
   sort fields' keys under the walk's conditions (`_candidates_in_order`), where mongoeco's sort compares values
   in Python at ~15 µs apiece.
2c. A `$in` of `str` or ObjectId values on a top-level field with a single-field index that the query may use
   (mongoeco's `query_can_use_index`: a partial index only when the query implies its filter) narrows the candidates
   to the union of the values' buckets, where mongoeco only narrows by an equality and so filters every stored
   document (a `$in` of 200 ids took 3 s at 2,000 jobs). A document matches `{f: {$in: [a, b]}}` exactly when `f`
   is a or b or an array holding one of them, that is when it is under a's or b's key (mongoeco's single-field keys
   name every element of an array). Taken when mongoeco found no narrower candidates; the full filter is then
   applied to each, as for an equality's bucket.
6. A `count` whose filter is exactly such a conjunction on a prefix of one index (every field of it in the prefix,
   the bound on the field after it), with no skip, limit, collation or text query, is the sum of its keys' bucket
   sizes: no document read (`count_find_semantics`, `_count_keyed_locked`). A key holding an array ("list" tag,
   `_index_keys` records the array beside its elements) or a bound field of another type sends the count back to
   mongoeco: only it counts such a document once and by its own comparison. A hint naming another index does too.
   A `str` equality on a dotted path counts too (the dead page's totals, `last_error.type`): `_index_keys` keys
   every value found along the path, a document once per distinct value, so one key's bucket holds each matching
   document once (an array's elements are among those values, as mongoeco matches an equality on one). On the
   20,000-job backlog above a count takes ~5 ms; on MongoDB the same `count` is a COUNT_SCAN of the keys.
   tests/test_embedded_mongo.py compares both engines on every count and find the gateway, the dashboard and the
   reconciler ask, with documents LPS never stores among them (arrays along a path too).

The SQLite engine (`lps mongo --data FILE`; issue 24). Besides the `_id` scan above, two costs of every write grew
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
(a claim) costs ~30 ms at 1,000 jobs and ~0.7 s at 30,000 (`python -m tools.embedded_mongo_flatness`). The SQLite
engine's reads are mongoeco's too.

Upgrading mongoeco. `patch_applies` refuses any release not in `VERIFIED_MONGOECO`, so a new one runs unpatched until
someone does this:

1. Diff the new release's source against 4.11.0 (`pip download mongoeco==X --no-deps`, unpack both) for everything
   this module leans on, and port each change:
   - the private methods overridden here: `MemoryEngine._ensure_unique_indexes` (its `check_id_storage` and
     `scan_payload_id` options), `MemoryEngine._index_keys`, `MemoryEngine.count_find_semantics` (whose locking,
     views and TTL purge change 6 repeats), the query plan's condition classes (`_conjunction`),
     `MemoryEngine._indexed_candidate_storage_keys_for_plan_locked` (and `_MemoryIndexedCandidates`), the
     `InCondition` plan node and `virtual_indexes.query_can_use_index` (change 2c),
     `SQLiteEngine._validate_document_against_unique_indexes` (its `skip_id_check` and `scan_payload_id` options),
     `SQLiteEngine._connect_sync`, `SQLiteEngine._create_index_sync`;
   - `MemoryEngine.scan_find_semantics`, whose beginning `_scan_in_index_order` copies (the operation metadata, the
     deadline, the lock, the TTL purge, the three views), and `iter_filtered_documents` / `stream_finalize_documents`
     it hands the documents to;
   - what the index walk reads: `MemoryIndexMap._buckets` (an rpds `HashTrieMap` replaced on every write: a kept
     order holds for one such map), `MemoryCollection.copy` / `ordered_keys`, `_index_equality_key` (its tags),
     `_update_indexes_locked` (overridden by change 7: every write of a document's index entries must still go
     through it, and change nothing but that document's keys), `core.sorting`'s order for `str`, ObjectId and
     datetime;
   - on SQLite: the probe queries' text (`json_path_for_field` and the literal in
     `_field_is_top_level_array_in_collection` and `_field_traverses_array_in_collection`), the `indexes` table's
     `fields` and `unique_flag` columns, the `ttl_index_entries` table and the write scope (`sqlite_write_scope`,
     `_begin_write`).
2. If rpds-py moves too, check `_bucket_keys` (its pickling form) still lists a map's keys.
3. Add the release to `VERIFIED_MONGOECO`, pin it (and rpds-py) in pyproject.toml, and run tests/test_embedded_mongo.py,
   tests/test_embedded_mongo_order.py
   (the work each insert and listing page does at two sizes, mongoeco's own answers compared query by query, the
   duplicate-key guarantees over the wire and on SQLite, the persistent store across a restart) and
   tests/test_job_listing.py, tests/test_job_repository.py, tests/test_dashboard.py on the embedded store; then
   `python -m tools.embedded_mongo_flatness` and `python -m bench --only growth` for the figures in BENCHMARKS.md.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import importlib.metadata
import json
import logging
import math
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from itertools import compress, islice, repeat
from operator import eq, ge, gt, itemgetter, le, lt
from typing import Any, TypeIs, cast, override

# The two engines are the fallback as well as the bases: an unverified mongoeco still has to provide them.
from mongoeco.engines.memory import MemoryEngine
from mongoeco.engines.sqlite import SQLiteEngine
from sortedcontainers import SortedKeyList

try:
    # Private names: on an unverified mongoeco they may be gone, and then the guard refuses the patch rather than
    # the import failing (nothing below is used unless `patch_applies()`).
    from mongoeco.core.codec import DocumentCodec
    from mongoeco.core.compiled_query import CompiledQuery
    from mongoeco.core.filtering import QueryEngine
    from mongoeco.core.operation_limits import enforce_deadline
    from mongoeco.core.query_plan import (
        AndCondition,
        EqualsCondition,
        ExistsCondition,
        GreaterThanCondition,
        GreaterThanOrEqualCondition,
        InCondition,
        LessThanCondition,
        LessThanOrEqualCondition,
        QueryNode,
    )
    from mongoeco.engines._memory_collection import MemoryCollection, MemoryIndexMap
    from mongoeco.engines._sqlite_write_scope import sqlite_write_scope
    from mongoeco.engines.memory import _MemoryIndexedCandidates
    from mongoeco.engines.semantic_core import EngineFindSemantics, iter_filtered_documents, stream_finalize_documents
    from mongoeco.engines.sqlite_query import json_path_for_field, path_array_prefixes
    from mongoeco.engines.virtual_indexes import query_can_use_index
    from mongoeco.session import ClientSession
    from mongoeco.types import Document, EngineIndexRecord, ObjectId
except ImportError as missing:  # pragma: no cover - exercised only by an unverified mongoeco
    _MISSING_NAME: ImportError | None = missing
else:
    _MISSING_NAME = None

log = logging.getLogger(__name__)

#: The mongoeco releases this module was compared with, line by line (see "Upgrading mongoeco" above). pyproject.toml
#: pins the same release.
VERIFIED_MONGOECO = frozenset({"4.11.0"})


def installed_mongoeco() -> str:
    return importlib.metadata.version("mongoeco")


@functools.cache
def patch_applies() -> bool:
    """Whether the installed mongoeco is one this module was verified on. Otherwise mongoeco's own engines are served
    (correct, but inserts and the listing's reads grow with the collection), and this says so once per process."""
    installed = installed_mongoeco()
    if installed in VERIFIED_MONGOECO and _MISSING_NAME is None:
        return True
    log.warning(
        "mongoeco %s is not a version tools/embedded_mongo_patch.py was verified on (%s)%s: serving mongoeco's own "
        "engine, unpatched (its inserts and the job listing's reads grow with the collection); see 'Upgrading "
        "mongoeco' in that module",
        installed,
        ", ".join(sorted(VERIFIED_MONGOECO)),
        f", and {_MISSING_NAME}" if _MISSING_NAME is not None else "",
    )
    return False


def create_engine(data_file: str | None = None, **memory_options: Any) -> MemoryEngine | SQLiteEngine:
    """The engine `lps mongo` serves: in a SQLite file, or in memory (`memory_options` go to the memory engine);
    patched when `patch_applies()`, mongoeco's own otherwise."""
    if not patch_applies():
        return SQLiteEngine(data_file) if data_file else MemoryEngine(**memory_options)
    return FlatInsertSQLiteEngine(data_file) if data_file else IndexedReadsMemoryEngine(**memory_options)


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
        """The SQLite indexes of the docstring's "The SQLite engine": TTL entries by document, and an expression index
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


#: The most candidates of change 2b a sorted find sorts itself (each one's document read for its sort key).
CANDIDATES_SORTED = 20_000
#: A sorted find sorts change 2b's candidates when the walk would cross this many keys per candidate or more.
CROSSED_PER_CANDIDATE = 10
#: Key tags (`bson_equality_key`) whose values Python orders as mongoeco sorts the stored values; see the docstring.
_ORDERED_TAGS = frozenset({"str", "objectid", "datetime"})
#: A missing field's None in the kept order (below every tag), and a component above every key under a prefix.
_MISSING_FORM = ("",)
_ABOVE_EVERY_TAG = ("\U0010ffff",)

type IndexKey = tuple[Any, ...]
#: One collection's index maps by index name, as mongoeco types them (MemoryIndexMap in practice).
type IndexData = dict[str, dict[IndexKey, set[Any]]]


def _clauses(plan: QueryNode) -> Iterator[QueryNode]:
    """The clauses of a conjunction, nested ANDs flattened; read from the last one (which one counts as a field's
    first below)."""
    pending = [plan]
    while pending:
        node = pending.pop()
        if isinstance(node, AndCondition):
            pending.extend(node.clauses)
        else:
            yield node


def _str_equalities(plan: QueryNode) -> dict[str, str]:
    """The conjunction's `field: "value"` clauses on top-level fields (the first one per field)."""
    found: dict[str, str] = {}
    for node in _clauses(plan):
        if (
            isinstance(node, EqualsCondition)
            and type(node.value) is str
            and not node.null_matches_undefined
            and "." not in node.field
        ):
            found.setdefault(node.field, node.value)
    return found


#: A datetime bound of a conjunction: (field, comparison, value), the comparison applied as `compare(stored, value)`.
type _Bound = tuple[str, Callable[[Any, Any], bool], datetime]


@dataclass(frozen=True, slots=True)
class _Conjunction:
    """A filter read as a conjunction of what an index key answers: equalities with a `str` or `bool` value, fields
    that must be missing (`$exists: false`), datetime bounds on top-level fields. `complete` when nothing else is
    in it, every field is top-level and there is at most one bound, `bound` (a count from the keys alone needs that);
    `bounds` are all of them (a find's candidates may be narrowed by each)."""

    equal: dict[str, str | bool]
    missing: frozenset[str]
    bound: _Bound | None
    bounds: tuple[_Bound, ...]
    complete: bool


@functools.cache
def _bounds() -> dict[type, Callable[[Any, Any], bool]]:
    """The bounds a count from index keys applies, by condition type (built on first use: an unverified mongoeco may
    lack the classes)."""
    return {
        GreaterThanCondition: gt,
        GreaterThanOrEqualCondition: ge,
        LessThanCondition: lt,
        LessThanOrEqualCondition: le,
    }


def _conjunction(plan: QueryNode) -> _Conjunction:
    equal: dict[str, str | bool] = {}
    missing: set[str] = set()
    bounds: list[_Bound] = []
    complete = True
    for node in _clauses(plan):
        field, value = getattr(node, "field", None), getattr(node, "value", None)
        if not isinstance(field, str) or field.startswith("$"):
            complete = False
        elif "." in field:
            # A path's values are what `_index_keys` keys too (`extract_values`: every value along arrays of
            # documents), so a `str` equality on it narrows the candidates, and a count of one key's documents counts
            # each document once (keys are a set; an array's elements are among the values, as mongoeco matches an
            # equality on one). Anything else on a path, or a second equality on it: mongoeco counts.
            if (
                isinstance(node, EqualsCondition)
                and type(value) is str
                and not node.null_matches_undefined
                and field not in equal
            ):
                equal[field] = value
            else:
                complete = False  # another condition, or a second equality on the path: mongoeco decides
        elif (
            isinstance(node, EqualsCondition)
            and isinstance(value, str | bool)
            and not node.null_matches_undefined
            and field not in equal
            and field not in missing
        ):
            equal[field] = value
        elif isinstance(node, ExistsCondition) and value is False and field not in equal:
            missing.add(field)
        elif type(node) in _bounds() and type(value) is datetime:
            bounds.append((field, _bounds()[type(node)], value))
        else:
            complete = False
    bound = bounds[0] if len(bounds) == 1 else None
    return _Conjunction(equal, frozenset(missing), bound, tuple(bounds), complete and len(bounds) <= 1)


def _keyed_fields(index: object, conjunction: _Conjunction) -> list[str] | None:
    """The fields of a compound index whose keys can answer `conjunction`: plain keys, no collation, not sparse or
    hidden, and, when partial, a filter of equalities the conjunction states too (then every document that matches
    the conjunction is in the index); None for any other."""
    if not isinstance(index, EngineIndexRecord) or index.sparse or index.hidden or index.collation is not None:
        return None
    key = index.key
    if not isinstance(key, list) or len(key) < 2 or list(index.fields) != [field for field, _ in key]:
        return None
    if any(type(direction) is not int or direction not in (1, -1) for _, direction in key):
        return None
    partial = index.partial_filter_expression
    if partial is not None:
        if not isinstance(partial, dict) or not partial:
            return None
        for field, value in partial.items():
            stated = conjunction.equal.get(field, _NOT_STATED)
            if type(value) not in (str, bool) or type(stated) is not type(value) or stated != value:
                return None
    return list(index.fields)


_NOT_STATED = object()


@dataclass(frozen=True, slots=True)
class _Keyed:
    """An index chosen for a conjunction: its name, its map of keys to storage keys, the key prefix the conjunction
    fixes, and its fields."""

    name: str
    index_map: Mapping[IndexKey, Any]
    prefix: IndexKey
    fields: list[str]


def _index_fields(index: object) -> list[str] | None:
    """The fields of an index that holds every document of its collection under its keys, compared without a
    collation and usable by the planner (not sparse, partial, hidden, text, hashed...); None for any other."""
    if not isinstance(index, EngineIndexRecord):
        return None
    if index.sparse or index.hidden or index.partial_filter_expression is not None or index.collation is not None:
        return None
    key = index.key
    if not isinstance(key, list) or list(index.fields) != [field for field, _ in key]:
        return None
    if any(type(direction) is not int or direction not in (1, -1) for _, direction in key):
        return None
    return list(index.fields)


def _prefix_length(fields: list[str], equalities: Mapping[str, str]) -> int:
    length = 0
    while length < len(fields) and fields[length] in equalities:
        length += 1
    return length


def _bucket_keys(buckets: Any) -> list[IndexKey]:
    """An rpds HashTrieMap's keys. Its iterator costs ~2 µs a key here (rpds-py 2026.9); its pickling form,
    `(HashTrieMap, ([(key, value), ...],))`, lists them in one call at under half that. Any other form: iterate."""
    try:
        _, (pairs,) = buckets.__reduce__()
        keys = list(map(itemgetter(0), pairs))
    except (TypeError, ValueError):
        return list(buckets)
    return keys if len(keys) == len(buckets) else list(buckets)


def _keys_under(keys: list[IndexKey], prefix: IndexKey) -> list[IndexKey]:
    """The key tuples that start with `prefix` (`keys` itself for none; it is not modified). C-level iteration:
    this and the tag check are most of what a page costs."""
    if not prefix:
        return keys
    if len(prefix) == 1:
        heads, wanted = map(itemgetter(0), keys), prefix[0]
    else:
        heads, wanted = map(itemgetter(slice(0, len(prefix))), keys), prefix
    return list(compress(keys, map(eq, repeat(wanted), heads)))


def _ordered_columns(keys: list[IndexKey], positions: range) -> bool:
    """Whether, at each of `positions`, every key has the same tag and it is one of `_ORDERED_TAGS` (no key: yes,
    no document is under the prefix, so none matches its equalities)."""
    for position in positions:
        try:
            tags = set(map(itemgetter(0), map(itemgetter(position), keys)))
        except (TypeError, IndexError):  # a missing field's None
            return False
        if len(tags) > 1 or not tags <= _ORDERED_TAGS:
            return False
    return True


def _in_order(keys: list[IndexKey], *, descending: bool, first: int) -> Iterator[IndexKey]:
    """Distinct, mutually comparable `keys` in order, sorting only as far as they are read: the first `first`,
    then twice as many as before each time more are read."""
    pick = heapq.nlargest if descending else heapq.nsmallest
    done, wanted = 0, max(first, 1)
    while done < len(keys):
        wanted = min(wanted, len(keys))
        yield from pick(wanted, keys)[done:]
        done, wanted = wanted, wanted * 2


def _tag(component: Any) -> str | None:
    """A key component's type tag; None for a missing field (`_index_keys` records None there)."""
    return component[0] if type(component) is tuple and component else None


def _sortable(key: IndexKey) -> bool:
    """Whether `key` has a place in a kept order: every component a missing field, or a tag of `_sortable_types` with a
    value of that tag's own type (a NaN's key holds a `str`), not a NaN."""
    types = _sortable_types()
    for component in key:
        if component is None:
            continue
        if type(component) is not tuple or len(component) != 2 or type(component[1]) is not types.get(component[0]):
            return False
        if component[0] == "number" and cast(Decimal, component[1]).is_nan():
            return False
    return True


@functools.cache
def _sortable_types() -> dict[str, type]:
    """The value type of each sortable key tag (built on first use: an unverified mongoeco may lack ObjectId)."""
    return {"str": str, "objectid": ObjectId, "datetime": datetime, "bool": bool, "none": type(None), "number": Decimal}


def _sort_form(key: IndexKey) -> IndexKey:
    """What a sortable key is ordered by: itself, its missing fields placed below every tag (a tag decides between
    two components of different types; two of one tag compare by value)."""
    return key if None not in key else tuple(_MISSING_FORM if component is None else component for component in key)


#: A bound on one key component: the comparison, applied as `compare(value, limit)`, and the limit's key (tag, limit).
type _KeyBound = tuple[Callable[[Any, Any], bool], tuple[str, Any]]


def _bounded_range(
    prefix: IndexKey, compare: Callable[[Any, Any], bool], tag: str, limit: Any
) -> tuple[IndexKey, IndexKey]:
    """The [low, high) range of sort forms whose component after `prefix` has `tag` and a value passing the bound (a
    key is above every tuple it starts with: `(*prefix, (tag, limit), _ABOVE_EVERY_TAG)` is above every key whose
    component is `(tag, limit)`, below every larger one)."""
    lowest, highest = (*prefix, (tag,)), (*prefix, (tag + "\0",))
    at, past = (*prefix, (tag, limit)), (*prefix, (tag, limit), _ABOVE_EVERY_TAG)
    return {gt: (past, highest), ge: (at, highest), lt: (lowest, at), le: (lowest, past)}[compare]


class _ListedKeys:
    """The keys of one version of an index, listed: what answers when no order can be kept for it (a key of it has
    no place in one). Each question is a pass over the keys (under a prefix)."""

    def __init__(self, keys: list[IndexKey]) -> None:
        self._keys = keys

    def under(self, prefix: IndexKey, bounds: Sequence[_KeyBound] = ()) -> list[IndexKey]:
        """The keys under `prefix` (`bounds` are for the kept order: the caller tests them on each key anyway)."""
        return _keys_under(self._keys, prefix)

    def walk(
        self, prefix: IndexKey, positions: range, bounds: list[_KeyBound], *, descending: bool, first: int
    ) -> tuple[int, Iterator[IndexKey]] | None:
        """The keys under `prefix` in order (`bounds` are for the kept order), and how many they are; None when a
        sort column (`positions`) holds a missing field or two types or a type Python does not order as mongoeco."""
        keys = self.under(prefix)
        if not _ordered_columns(keys, positions):
            return None
        return len(keys), _in_order(keys, descending=descending, first=first)


class _OrderedKeys:
    """Change 7: the keys of an index in order, for the version `buckets` of its map (an rpds map, replaced on every
    write to the index), and how many keys hold each tag at each position. `IndexedReadsMemoryEngine` moves it on to
    the map's next version on every write through `_update_indexes_locked`; any other change of the map (a rebuild,
    an undo) leaves it behind, and then it is made again. Keys with no place in an order are only counted
    (`unordered`): while there is one, the index answers as `_ListedKeys`."""

    __slots__ = ("buckets", "keys", "tags", "unordered")

    def __init__(self, buckets: Any) -> None:
        listed = _bucket_keys(buckets)
        self.buckets = buckets
        self.keys: SortedKeyList = SortedKeyList(filter(_sortable, listed), key=_sort_form)
        self.unordered = len(listed) - len(self.keys)
        width = len(listed[0]) if listed else 0
        self.tags = [Counter(_tag(key[position]) for key in listed) for position in range(width)]

    def follow(self, buckets: Any, keys: Iterable[IndexKey]) -> None:
        """Move on to `buckets`, the map's next version, which differs from this one's at most in `keys`."""
        before = self.buckets
        for key in set(keys):
            present = key in buckets
            if present == (key in before):
                continue
            step = 1 if present else -1
            if not _sortable(key):
                self.unordered += step
            elif present:
                self.keys.add(key)
            else:
                self.keys.remove(key)
            while len(self.tags) < len(key):
                self.tags.append(Counter())
            for position, component in enumerate(key):
                self.tags[position][_tag(component)] += step
        self.buckets = buckets

    def _range(self, prefix: IndexKey) -> tuple[IndexKey, IndexKey]:
        low = _sort_form(prefix)
        return low, (*low, _ABOVE_EVERY_TAG)

    def _tags_at(self, position: int) -> set[str | None]:
        return {tag for tag, count in self.tags[position].items() if count} if position < len(self.tags) else set()

    def under(self, prefix: IndexKey, bounds: Sequence[_KeyBound] = ()) -> Iterator[IndexKey]:
        """The keys under `prefix`, read as they are iterated (so, all under the collection lock); with `bounds` (each
        a comparison and a key component, for the field right after the prefix), only those whose component there
        passes them all, when they are a range there (`_bounded`); all of them otherwise."""
        low, high = self._bounded(prefix, bounds) or self._range(prefix)
        return self.keys.irange_key(low, high, inclusive=(True, False))

    def _bounded(self, prefix: IndexKey, bounds: Sequence[_KeyBound]) -> tuple[IndexKey, IndexKey] | None:
        """The [low, high) range of the keys under `prefix` whose component after it passes every one of `bounds`, or
        None when there are none or they are not a range of the order there (two tags, or not `_is_range`)."""
        tags = {tag for _, (tag, _) in bounds}
        if len(tags) != 1 or not self._is_range(len(prefix), next(iter(tags))):
            return None
        low, high = self._range(prefix)
        for compare, (tag, limit) in bounds:
            bounded_low, bounded_high = _bounded_range(_sort_form(prefix), compare, tag, limit)
            low, high = max(low, bounded_low), min(high, bounded_high)
        return low, high

    def _is_range(self, position: int, tag: str) -> bool:
        """Whether a bound of `tag` at `position` selects exactly a range of the order: when no key of the index holds
        anything there but that tag's values (which the bound compares as mongoeco does) or a missing field (which
        mongoeco matches by no bound). A key of another type may pass a bound in mongoeco's order (`_within_bound`:
        a null, a string or a number is `$lt` a date there)."""
        return tag in _ORDERED_TAGS and self._tags_at(position) <= {tag, None}

    def _count(self, low: IndexKey, high: IndexKey) -> int:
        return max(0, self.keys.bisect_key_left(high) - self.keys.bisect_key_left(low))

    def walk(
        self, prefix: IndexKey, positions: range, bounds: list[_KeyBound], *, descending: bool, first: int
    ) -> tuple[int, Iterator[IndexKey]] | None:
        """The keys a walk of the sort columns `positions` (the fields after `prefix`) reads in order, and how many it
        may cross; None when mongoeco's order could differ.

        The first sort column: with datetime `bounds` on it that are a range there (`_is_range`), only the keys within
        them; otherwise the keys under the prefix, whose first and last (in a sorted range, so every one) have one
        ordered tag there. The later columns: every key of
        the index has one ordered tag there (kept counts; no walk of LPS's sorts on them beyond `_id`).

        The keys are those of the version of this call, read from the kept order a run at a time (`first` keys, then
        twice as many each time), and, once a write has moved the order on, the rest from that version's own keys. A
        run is read between the wire server's awaits, so no write comes in the middle of one."""
        start = len(prefix)
        bounded = self._bounded(prefix, bounds)
        if bounded is not None:
            low, high = bounded
        else:
            low, high = self._range(prefix)
            edges = (
                next(iter(self.keys.irange_key(low, high, (True, False), reverse=reverse)), None)
                for reverse in (False, True)
            )
            edge_tags = {_tag(key[start]) for key in edges if key is not None}
            if edge_tags and (len(edge_tags) != 1 or not edge_tags <= _ORDERED_TAGS):
                return None
        for position in positions[1:]:
            later = self._tags_at(position)
            if len(later) != 1 or not later <= _ORDERED_TAGS:
                return None
        return self._count(low, high), self._walk(self.buckets, low, high, descending=descending, first=first)

    def _walk(self, version: Any, low: IndexKey, high: IndexKey, *, descending: bool, first: int) -> Iterator[IndexKey]:
        run, last = max(first, 1), None
        while True:
            if self.buckets is not version:
                rest = [key for key in _bucket_keys(version) if low <= _sort_form(key) < high]
                if last is not None:
                    rest = [key for key in rest if (key < last if descending else key > last)]
                yield from _in_order(rest, descending=descending, first=run)
                return
            if last is None:
                keys = self.keys.irange_key(low, high, (True, False), reverse=descending)
            elif descending:
                keys = self.keys.irange_key(low, _sort_form(last), (True, False), reverse=True)
            else:
                keys = self.keys.irange_key(_sort_form(last), high, (False, False))
            taken = list(islice(keys, run))
            yield from taken
            if len(taken) < run:
                return
            last, run = taken[-1], run * 2


def _listed_in(node: QueryNode) -> TypeIs[InCondition]:
    """A `$in` of `str` or ObjectId values on a top-level field: what change 2c narrows by and 2d matches by sets."""
    return (
        isinstance(node, InCondition)
        and not node.null_matches_undefined
        and "." not in node.field
        and all(type(value) in _KEYED_ID_TYPES for value in node.values)
    )


class _MembershipMatch:
    """Change 2d: a find's matcher with each listed `$in` of its conjunction prepared once (mongoeco's own
    `_prepare_membership_values` and `_candidate_matches_membership`, what its `_evaluate_in` runs per document) and
    the other clauses in mongoeco's compiled matcher."""

    def __init__(self, semantics: EngineFindSemantics, listed: list[InCondition], rest: list[QueryNode]) -> None:
        self._semantics = semantics
        self._listed = [
            (
                node.field,
                QueryEngine._prepare_membership_values(node.values, null_matches_undefined=False, collation=None),
            )
            for node in listed
        ]
        self._rest = CompiledQuery(AndCondition(tuple(rest)), dialect=semantics.dialect) if rest else None

    def match(self, document: Document, *, variables: Any = None) -> bool:
        dialect = self._semantics.dialect
        for field, (literals, patterns, residual) in self._listed:
            if not any(
                QueryEngine._candidate_matches_membership(
                    candidate,
                    literal_lookup=literals,
                    regex_values=patterns,
                    residual_values=residual,
                    null_matches_undefined=False,
                    dialect=dialect,
                )
                for candidate in QueryEngine._extract_values(document, field) or [None]
            ):
                return False
        return self._rest is None or self._rest.match(document, variables=variables)


def _with_membership_sets(semantics: EngineFindSemantics) -> EngineFindSemantics:
    """The find with change 2d's matcher when its filter is a conjunction holding a listed `$in` (no collation)."""
    if semantics.collation is not None or semantics.text_query is not None:
        return semantics
    listed: list[InCondition] = []
    rest: list[QueryNode] = []
    for clause in _clauses(semantics.query_plan):
        if _listed_in(clause):
            listed.append(clause)
        else:
            rest.append(clause)
    if not listed:
        return semantics
    # mongoeco calls only `match` of a find's compiled query (`iter_filtered_documents`, its cursor's `_matches`).
    return replace(semantics, compiled_query=cast(CompiledQuery, _MembershipMatch(semantics, listed, rest)))


class IndexedReadsMemoryEngine(FlatInsertMemoryEngine):
    """The memory engine `lps mongo` serves: flat inserts, plus the compound-index reads in the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: id(index map) -> (a weak reference to that map, its keys in order): change 7, for the maps read so far.
        self._orders: dict[int, tuple[weakref.ref[Any], _OrderedKeys]] = {}

    def _kept_order(self, index_map: MemoryIndexMap[Any]) -> _OrderedKeys | None:
        """The order kept for this index map, if it is in step with the map's current version."""
        held = self._orders.get(id(index_map))
        if held is None or held[0]() is not index_map or held[1].buckets is not index_map._buckets:
            return None
        return held[1]

    def _keys_of(self, index_map: Mapping[IndexKey, Any]) -> _OrderedKeys | _ListedKeys:
        """An index's keys, to select and walk: its kept order (made now if none is in step with the map), or, while a
        key has no place in an order (or for a map that is not mongoeco's persistent one), its keys listed."""
        if not isinstance(index_map, MemoryIndexMap):
            return _ListedKeys(list(index_map))
        order = self._kept_order(index_map)
        if order is None:
            started = time.perf_counter()
            order = _OrderedKeys(index_map._buckets)
            # Once per index read, and after a change no write made (a rebuild, an undo): more often is a cost to see
            # (logged at DEBUG).
            log.debug(
                "kept the order of an index's %d keys (%.0f ms)",
                len(order.keys),
                (time.perf_counter() - started) * 1000,
            )
            number = id(index_map)
            forget = functools.partial(self._orders.pop, number, None)
            self._orders[number] = (weakref.ref(index_map, lambda _: forget()), order)
        return order if order.unordered == 0 else _ListedKeys(_bucket_keys(order.buckets))

    @override
    def _update_indexes_locked(
        self,
        db_name: str,
        coll_name: str,
        storage_key: Any,
        document: Document,
        *,
        action: str = "insert",
        index_data_view: dict[str, Any] | None = None,
        indexes_view: dict[str, Any] | None = None,
    ) -> None:
        """mongoeco's, then every kept order of the collection's indexes moved on to its map's new version (change 7):
        only this document's keys can have come or gone."""
        indexes = (self._indexes if indexes_view is None else indexes_view).get(db_name, {}).get(coll_name, [])
        data = (self._index_data if index_data_view is None else index_data_view).get(db_name, {}).get(coll_name, {})
        kept = [
            (index, index_map, order)
            for index in indexes
            if isinstance(index_map := data.get(index.name), MemoryIndexMap)
            and (order := self._kept_order(index_map)) is not None
        ]
        super()._update_indexes_locked(
            db_name,
            coll_name,
            storage_key,
            document,
            action=action,
            index_data_view=index_data_view,
            indexes_view=indexes_view,
        )
        for index, index_map, order in kept:
            if index_map._buckets is not order.buckets:
                order.follow(index_map._buckets, self._index_keys(document, list(index.fields)))

    @override
    def _index_keys(self, document: Document, fields: list[str]) -> set[IndexKey]:
        if len(fields) == 1:
            return super()._index_keys(document, fields)
        keys: list[IndexKey] = [()]
        for field in fields:
            values = QueryEngine.extract_values(document, field)
            components = {self._index_equality_key(value) for value in values} if values else {None}
            keys = [(*key, component) for key in keys for component in components]
        return set(keys)

    def _prefix_index(
        self,
        indexes: list[EngineIndexRecord],
        index_data: IndexData,
        equalities: Mapping[str, str],
        *,
        compound_only: bool,
        rest: list[str] | None = None,
    ) -> tuple[Mapping[IndexKey, Any], IndexKey] | None:
        """The plain index, and its key prefix, with the longest run of leading fields under a `str` equality;
        with `rest`, only an index whose other fields are exactly those (a prefix may be empty then)."""
        best: tuple[int, Mapping[IndexKey, Any], list[str]] | None = None
        for index in indexes:
            fields = _index_fields(index)
            if fields is None or (compound_only and len(fields) < 2):
                continue
            length = _prefix_length(fields, equalities)
            if rest is not None:
                if fields[-len(rest) :] != rest or length < len(fields) - len(rest):
                    continue
                length = len(fields) - len(rest)
            elif length == 0:
                continue
            index_map = index_data.get(index.name)
            if index_map is not None and (best is None or length > best[0]):
                best = (length, index_map, fields)
        if best is None:
            return None
        length, chosen, fields = best
        prefix = tuple(self._index_equality_key(equalities[field]) for field in fields[:length])
        return chosen, prefix

    def _keyed_prefix(self, fields: list[str], conjunction: _Conjunction) -> IndexKey:
        """The leading key components the conjunction fixes: an equality's key, or None for a missing field (what
        `_index_keys` records for a field with no value)."""
        components: list[Any] = []
        for field in fields:
            if field in conjunction.equal:
                components.append(self._index_equality_key(conjunction.equal[field]))
            elif field in conjunction.missing:
                components.append(None)
            else:
                break
        return tuple(components)

    def _keyed_index(
        self, indexes: list[EngineIndexRecord], index_data: IndexData, conjunction: _Conjunction, *, whole: bool
    ) -> _Keyed | None:
        """The compound index whose keys fix the longest prefix for `conjunction` (at least two fields; the fewest
        fields among equals). `whole`: only one whose prefix holds every equality and missing field, followed by the
        bound's field if there is a bound (a count from the keys alone)."""
        stated = len(conjunction.equal) + len(conjunction.missing)
        best: tuple[tuple[int, int], _Keyed] | None = None
        for index in indexes:
            fields = _keyed_fields(index, conjunction)
            index_map = index_data.get(index.name) if fields is not None else None
            if fields is None or index_map is None:
                continue
            prefix = self._keyed_prefix(fields, conjunction)
            if len(prefix) < 2:
                continue
            if whole:
                bound_field = conjunction.bound[0] if conjunction.bound else None
                if len(prefix) != stated or (
                    bound_field is not None and (len(fields) <= len(prefix) or fields[len(prefix)] != bound_field)
                ):
                    continue
            rank = (len(prefix), -len(fields))
            if best is None or rank > best[0]:
                best = (rank, _Keyed(index.name, index_map, prefix, fields))
        return None if best is None else best[1]

    def _count_keyed_locked(
        self, indexes: list[EngineIndexRecord], index_data: IndexData, semantics: Any
    ) -> int | None:
        """Change 6: the number of documents matching the filter, from the index's key tuples and the size of each
        one's bucket, no document read; None when the keys cannot say (mongoeco counts then)."""
        conjunction = _conjunction(semantics.query_plan)
        if not conjunction.complete:
            return None
        found = self._keyed_index(indexes, index_data, conjunction, whole=True)
        if found is None:
            return None
        index_map, prefix = found.index_map, found.prefix
        if semantics.hint is not None and semantics.hint != found.name:
            return None
        position = len(prefix)
        # `whole`: a bound is on the field right after the prefix.
        bounded = self._within_bound(conjunction.bound) if conjunction.bound is not None else None
        key_bounds = [self._key_bound(conjunction.bound)] if conjunction.bound is not None else []
        total = 0
        for key in self._keys_of(index_map).under(prefix, key_bounds):
            # A document with an array in a field of the index is under several keys: only mongoeco counts it once.
            if any(type(component) is tuple and component[0] == "list" for component in key):
                return None
            if bounded is not None:
                tag, within = bounded
                component = key[position]
                if type(component) is not tuple or component[0] != tag:
                    return None  # another type than the bound's: mongoeco's comparison decides (see _within_bound)
                if not within(component):
                    continue
            total += len(index_map[key])
        return total

    def _key_bound(self, bound: _Bound) -> _KeyBound:
        """A conjunction's datetime bound as a bound on its field's key component."""
        _, compare, value = bound
        return compare, self._index_equality_key(value)

    def _within_bound(self, bound: _Bound) -> tuple[str, Callable[[Any], bool]]:
        """The bound's type tag, and whether a key component of its field may pass it. A value of the bound's own type
        is compared; any other (a missing field's None, a null, a number, a bool) may pass: MongoDB would not match it
        (type bracketing), but mongoeco orders values of different types and may, and the patch keeps mongoeco's
        answers."""
        _, compare, value = bound
        tag, limit = self._index_equality_key(value)

        def within(component: Any) -> bool:
            return type(component) is not tuple or component[0] != tag or compare(component[1], limit)

        return tag, within

    @override
    async def count_find_semantics(
        self,
        db_name: str,
        coll_name: str,
        semantics: EngineFindSemantics,
        *,
        context: ClientSession | None = None,
        operation_context: Any = None,
    ) -> int:
        if (
            semantics.text_query is not None
            or semantics.collation is not None
            or semantics.skip
            or semantics.limit is not None
            or self._is_profile_namespace(coll_name)
        ):
            return await super().count_find_semantics(
                db_name, coll_name, semantics, context=context, operation_context=operation_context
            )
        session = operation_context.session if operation_context is not None else context
        async with self._get_lock(db_name, coll_name):
            indexes_view, index_data_view = self._indexes_view(session), self._index_data_view(session)
            # What mongoeco does before it counts: documents past a TTL index's expiry are gone first.
            self._purge_expired_documents_locked(
                db_name,
                coll_name,
                context=session,
                indexes_view=indexes_view,
                index_data_view=index_data_view,
                storage_view=self._storage_view(session),
                now=semantics.variables.now.replace(tzinfo=UTC),
            )
            indexes = indexes_view.get(db_name, {}).get(coll_name, [])
            index_data = index_data_view.get(db_name, {}).get(coll_name, {})
            counted = self._count_keyed_locked(indexes, index_data, semantics)
        if counted is not None:
            return counted
        return await super().count_find_semantics(
            db_name, coll_name, semantics, context=context, operation_context=operation_context
        )

    @override
    def _indexed_candidate_storage_keys_for_plan_locked(
        self,
        indexes: list[EngineIndexRecord],
        index_data: dict[str, dict[tuple[Any, ...], set[Any]]],
        query_plan: QueryNode,
        *,
        dialect: Any,
        collation: Any,
    ) -> _MemoryIndexedCandidates | None:
        candidates = super()._indexed_candidate_storage_keys_for_plan_locked(
            indexes, index_data, query_plan, dialect=dialect, collation=collation
        )
        if collation is not None:
            return candidates
        keyed = self._keyed_candidates_locked(indexes, index_data, query_plan)
        if keyed is not None and (candidates is None or len(keyed) < len(candidates.storage_keys)):
            return _MemoryIndexedCandidates(keyed)
        listed = self._in_candidates_locked(indexes, index_data, query_plan, dialect=dialect)
        if listed is not None and (candidates is None or len(listed.storage_keys) < len(candidates.storage_keys)):
            return listed
        if candidates is not None:
            return candidates
        found = self._prefix_index(indexes, index_data, _str_equalities(query_plan), compound_only=True)
        if found is None:
            return None
        index_map, prefix = found
        under: set[Any] = set()
        for key in self._keys_of(index_map).under(prefix):
            under.update(index_map[key])
        return _MemoryIndexedCandidates(under)

    def _keyed_candidates_locked(
        self,
        indexes: list[EngineIndexRecord],
        index_data: IndexData,
        query_plan: QueryNode,
        *,
        at_most: int | None = None,
    ) -> set[Any] | None:
        """Change 2b: the storage keys under a compound prefix of equalities (bool ones and missing fields too, on a
        partial index the query implies) whose components pass the bounds on the fields after it; None when no
        index has such a prefix. (A single-field `active: true` index would hold the whole active set; `active,
        status: RUNNING` holds only the running jobs.) None too once there are more than `at_most`."""
        conjunction = _conjunction(query_plan)
        keyed = self._keyed_index(indexes, index_data, conjunction, whole=False)
        if keyed is None:
            return None
        index_map, prefix, fields = keyed.index_map, keyed.prefix, keyed.fields
        after = fields[len(prefix) :]
        tests = [
            (len(prefix) + after.index(bound[0]), self._within_bound(bound)[1])
            for bound in conjunction.bounds
            if bound[0] in after
        ]
        # The bounds on the field right after the prefix select a range of a kept order's keys (both ends of the
        # reconciler's step: from its cursor, not from the oldest DONE search).
        next_field = fields[len(prefix)] if len(fields) > len(prefix) else None
        next_bounds = [self._key_bound(bound) for bound in conjunction.bounds if bound[0] == next_field]
        selected = self._keys_of(index_map).under(prefix, next_bounds)
        storage_keys: set[Any] = set()
        for key in selected:
            if all(within(key[position]) for position, within in tests):
                bucket = index_map[key]
                # Given up before a bucket too large is copied (a batch's jobs share one run_after's key).
                if at_most is not None and len(storage_keys) + len(bucket) > at_most:
                    return None
                storage_keys.update(bucket)
        return storage_keys

    def _in_candidates_locked(
        self, indexes: list[EngineIndexRecord], index_data: IndexData, query_plan: QueryNode, *, dialect: Any
    ) -> _MemoryIndexedCandidates | None:
        """Change 2c: the documents under the keys of a `$in`'s values in a single-field index the query may use; None
        when no clause of the conjunction is such a `$in`."""
        for node in _clauses(query_plan):
            if not _listed_in(node):
                continue
            for index in indexes:
                if not isinstance(index, EngineIndexRecord) or index.key != [(node.field, 1)] or index.collation:
                    continue
                index_map = index_data.get(index.name)
                if index_map is None or not query_can_use_index(index, query_plan, dialect=dialect):
                    continue
                storage_keys: set[Any] = set()
                for value in node.values:
                    storage_keys.update(index_map.get((self._index_equality_key(value),), ()))
                return _MemoryIndexedCandidates(storage_keys)
        return None

    @override
    def scan_find_semantics(
        self,
        db_name: str,
        coll_name: str,
        semantics: EngineFindSemantics,
        *,
        context: ClientSession | None = None,
    ) -> AsyncIterable[Document]:
        semantics = _with_membership_sets(semantics)
        sort = semantics.sort
        if (
            not sort
            or semantics.limit is None
            or semantics.limit <= 0
            or semantics.skip < 0
            or semantics.collation is not None
            or semantics.hint is not None
            or semantics.text_query is not None
            or self._is_profile_namespace(coll_name)
        ):
            return super().scan_find_semantics(db_name, coll_name, semantics, context=context)
        fields = [field for field, _ in sort]
        directions = [direction for _, direction in sort]
        if (
            any(type(direction) is not int or direction not in (1, -1) for direction in directions)
            or len(set(directions)) != 1
            or any(type(field) is not str or "." in field or field.startswith("$") for field in fields)
            or len(set(fields)) != len(fields)
        ):
            return super().scan_find_semantics(db_name, coll_name, semantics, context=context)
        return self._scan_in_index_order(db_name, coll_name, semantics, fields, directions[0] == -1, context)

    def _index_walk_locked(
        self,
        coll: Any,
        indexes: list[EngineIndexRecord],
        index_data: IndexData,
        semantics: EngineFindSemantics,
        sort_fields: list[str],
        descending: bool,
    ) -> Callable[[], Iterator[Any]] | None:
        """Under the collection lock: the stored documents in sort order, as a walk over O(1) snapshots of the
        collection and the index to run after the lock, or None when mongoeco's own path must answer."""
        plan = semantics.query_plan
        if not isinstance(coll, MemoryCollection) or self._direct_id_lookup_from_plan(plan) is not None:
            return None
        if (
            MemoryEngine._indexed_candidate_storage_keys_for_plan_locked(
                self, indexes, index_data, plan, dialect=semantics.dialect, collation=None
            )
            is not None
        ):
            # mongoeco reads a single-field bucket in that bucket's own order: its ties are left to it.
            return None
        found = self._prefix_index(indexes, index_data, _str_equalities(plan), compound_only=False, rest=sort_fields)
        if found is None:
            return None
        index_map, prefix = found
        if not isinstance(index_map, MemoryIndexMap):
            return None
        assert semantics.limit is not None
        first = semantics.skip + semantics.limit
        bounds = [self._key_bound(bound) for bound in _conjunction(plan).bounds if bound[0] == sort_fields[0]]
        positions = range(len(prefix), len(prefix) + len(sort_fields))
        planned = self._keys_of(index_map).walk(prefix, positions, bounds, descending=descending, first=first)
        if planned is None:
            return None
        crossed, keys = planned
        # A walk examines about first x crossed / (documents that match) documents if the matches are spread evenly,
        # and all it crosses if they sit at its far end (a backlog's delayed jobs, older than every PENDING job added
        # after them); a sort of change 2b's candidates examines as many as it has. So candidates are sorted here,
        # by their sort fields' keys, when they are fewer than the square root of first x crossed or a tenth of
        # crossed; a status's whole history is walked.
        stored = coll.copy()
        at_most = min(max(math.isqrt(first * crossed), crossed // CROSSED_PER_CANDIDATE), CANDIDATES_SORTED)
        candidates = self._keyed_candidates_locked(indexes, index_data, plan, at_most=at_most)
        if candidates is not None:
            in_order = self._candidates_in_order(stored, candidates, sort_fields, descending=descending)
            if in_order is None:
                return None  # mongoeco sorts them

            def sorted_candidates() -> Iterator[Any]:
                for storage_key in in_order:
                    yield stored[storage_key]

            return sorted_candidates
        buckets = index_map.copy()

        def walk() -> Iterator[Any]:
            for key in keys:
                for storage_key in stored.ordered_keys(buckets[key]):
                    yield stored[storage_key]

        return walk

    def _candidates_in_order(
        self, stored: Any, candidates: set[Any], sort_fields: list[str], *, descending: bool
    ) -> list[Any] | None:
        """The candidates' storage keys in sort order, as the walk would give them: by their sort fields' key values,
        ties in storage order (a stable sort of them in that order, either way). None when a candidate's sort field
        is missing, an array, or not of one `_ORDERED_TAGS` tag shared by every candidate: mongoeco's order then."""
        keyed: list[tuple[tuple[Any, ...], Any]] = []
        tags: list[str | None] = [None] * len(sort_fields)
        for storage_key in stored.ordered_keys(candidates):
            document = self._borrow_storage_document(stored[storage_key])
            values = []
            for position, field in enumerate(sort_fields):
                found = QueryEngine.extract_values(document, field)
                if len(found) != 1:  # missing, or an array (its elements come with it)
                    return None
                tag, value = self._index_equality_key(found[0])
                if tag not in _ORDERED_TAGS or tags[position] not in (None, tag):
                    return None
                tags[position] = tag
                values.append(value)
            keyed.append((tuple(values), storage_key))
        keyed.sort(key=itemgetter(0), reverse=descending)
        return [storage_key for _, storage_key in keyed]

    async def _scan_in_index_order(
        self,
        db_name: str,
        coll_name: str,
        semantics: EngineFindSemantics,
        sort_fields: list[str],
        descending: bool,
        context: ClientSession | None,
    ) -> AsyncIterator[Document]:
        # mongoeco's `scan_find_semantics` up to its candidates, for a find without hint, text query or collation.
        deadline = semantics.deadline
        self._record_operation_metadata(
            context,
            operation="scan_collection",
            comment=semantics.comment,
            max_time_ms=semantics.max_time_ms,
            hint=None,
        )
        enforce_deadline(deadline)
        async with self._get_lock(db_name, coll_name):
            coll = self._storage_view(context).get(db_name, {}).get(coll_name, {})
            indexes = self._indexes_view(context).get(db_name, {}).get(coll_name, [])
            index_data = self._index_data_view(context).get(db_name, {}).get(coll_name, {})
            self._purge_expired_documents_locked(
                db_name,
                coll_name,
                context=context,
                indexes_view=self._indexes_view(context),
                index_data_view=self._index_data_view(context),
                storage_view=self._storage_view(context),
                now=semantics.variables.now.replace(tzinfo=UTC),
            )
            walk = self._index_walk_locked(coll, indexes, index_data, semantics, sort_fields, descending)
            del coll, indexes, index_data
        if walk is None:
            # Nothing was read yet: mongoeco answers, from the collection as it is when it takes the lock.
            async for document in super().scan_find_semantics(db_name, coll_name, semantics, context=context):
                yield document
            return
        source = (self._borrow_storage_document(data) for data in walk())
        documents = stream_finalize_documents(
            iter_filtered_documents(source, semantics), semantics, emit_public_documents=False
        )
        try:
            for document in documents:
                enforce_deadline(deadline)
                yield self._copy_document_containers(DocumentCodec.to_public(document))  # type: ignore[misc]
        finally:
            documents.close()  # type: ignore[attr-defined]
