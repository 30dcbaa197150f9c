"""mongoeco's engines, with inserts whose cost does not grow with the collection and, in memory, the job listing's
reads served from LPS's compound indexes.

Verified on mongoeco 4.11.0 (pyproject.toml pins `>=4.11,<4.12`; issue 12 saw 4.9.1 do the same as 4.11 for inserts).
Every change below keeps mongoeco's results, document for document and in the same order; a query that does not fit
a change's preconditions takes mongoeco's own path, unchanged.

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
   skip/limit/projection stage, until the page is full (`scan_find_semantics`). It sorts only as much of the keys as
   it reads (`heapq.nsmallest`/`nlargest` of the first skip+limit, then twice as many each time it needs more): a
   page costs one pass over the keys in C-level comparisons plus the documents it examines, not a sort of them all.
   It gives mongoeco's order because every sort field's key, over all the selected entries, has the same one of
   three tags whose values compare as mongoeco's sort compares the stored values: "str" (Python `<`, which is what
   `core.sorting` uses for two `str`s), "objectid" (the normalized ObjectId, as `compare_values` normalizes) and
   "datetime" (the naive UTC millisecond `normalize_utc_bson_datetime`, which is also what mongoeco's codec stores).
   A missing field (None), null, a number, an array, a document, or two types in one field: mongoeco's path. Two
   distinct key tuples under one prefix then never tie, and one tuple's documents (ties) come in storage order, as
   mongoeco's stable sort of a full scan leaves them. A document is under one selected tuple only: a second key
   would need an array in a sort field, whose "list" key refuses the shortcut. The walk reads O(1) copies of the
   collection and the index map taken under the collection lock, as mongoeco reads the candidate list it took there.

Changes 2 and 3 list an index's key tuples (and those under a prefix) once per version of the index: its buckets are
an immutable rpds HashTrieMap that every write to the index replaces, so a list made from the map object held in
the cache is that map's keys (`_index_keys_under`). Listing them costs ~20-40 ms at 50,000 (rpds' pickling form,
`_bucket_keys`: its iterator is twice as slow); a page on an unchanged index pays only the pass over its prefix's keys.

Not worked around: on SQLite (`lps mongo --data FILE`) an insert also runs, per unique index it falls under, a
`json_type` query over every stored document (`SQLiteEngine._field_is_top_level_array_in_collection`, cached per
collection but the cache is dropped on every write). It is SQL, so far cheaper than the scan above, but still
linear; fixing it means keeping mongoeco's feature cache right across every write path, which is not small. The
SQLite engine's reads are mongoeco's too.
"""

from __future__ import annotations

import heapq
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator, Mapping
from datetime import UTC
from itertools import compress, repeat
from operator import eq, itemgetter
from typing import Any, override

from mongoeco.core.codec import DocumentCodec
from mongoeco.core.filtering import QueryEngine
from mongoeco.core.operation_limits import enforce_deadline
from mongoeco.core.query_plan import AndCondition, EqualsCondition, QueryNode
from mongoeco.engines._memory_collection import MemoryCollection, MemoryIndexMap
from mongoeco.engines.memory import MemoryEngine, _MemoryIndexedCandidates
from mongoeco.engines.semantic_core import EngineFindSemantics, iter_filtered_documents, stream_finalize_documents
from mongoeco.engines.sqlite import SQLiteEngine
from mongoeco.session import ClientSession
from mongoeco.types import Document, EngineIndexRecord, ObjectId

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


class FlatInsertSQLiteEngine(SQLiteEngine):
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


#: Key tags (`bson_equality_key`) whose values Python orders as mongoeco sorts the stored values; see the docstring.
_ORDERED_TAGS = frozenset({"str", "objectid", "datetime"})

#: Index versions whose key lists are kept (each pins that version of its rpds map, which shares most of its nodes).
_KEY_LISTS_KEPT = 8
_PREFIXES_KEPT = 64

type IndexKey = tuple[Any, ...]
#: One collection's index maps by index name, as mongoeco types them (MemoryIndexMap in practice).
type IndexData = dict[str, dict[IndexKey, set[Any]]]


def _str_equalities(plan: QueryNode) -> dict[str, str]:
    """The conjunction's `field: "value"` clauses on top-level fields (the first one per field)."""
    found: dict[str, str] = {}
    pending = [plan]
    while pending:
        node = pending.pop()
        if isinstance(node, AndCondition):
            pending.extend(node.clauses)
        elif (
            isinstance(node, EqualsCondition)
            and type(node.value) is str
            and not node.null_matches_undefined
            and "." not in node.field
        ):
            found.setdefault(node.field, node.value)
    return found


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


class IndexedReadsMemoryEngine(FlatInsertMemoryEngine):
    """The memory engine `lps mongo` serves: flat inserts, plus the compound-index reads in the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: id(HashTrieMap) -> (that map, {key prefix: its keys under that prefix}): an index map's buckets are an
        #: immutable rpds map that every write to the index replaces, so while a map is the one held here its keys
        #: are these. The last few versions of the indexes read, and the last few prefixes read in each.
        self._key_lists: dict[int, tuple[Any, dict[IndexKey, list[IndexKey]]]] = {}

    def _index_keys_under(self, index_map: Mapping[IndexKey, Any], prefix: IndexKey) -> list[IndexKey]:
        """The index's key tuples that start with `prefix`, listed once per version of the index and prefix (do not
        modify the list)."""
        if not isinstance(index_map, MemoryIndexMap):
            return _keys_under(list(index_map), prefix)
        buckets = index_map._buckets
        cached = self._key_lists.get(id(buckets))
        if cached is None or cached[0] is not buckets:
            if len(self._key_lists) >= _KEY_LISTS_KEPT:
                del self._key_lists[next(iter(self._key_lists))]
            cached = self._key_lists[id(buckets)] = (buckets, {(): _bucket_keys(buckets)})
        _, selections = cached
        selected = selections.get(prefix)
        if selected is None:
            if len(selections) > _PREFIXES_KEPT:
                all_keys = selections[()]
                selections.clear()
                selections[()] = all_keys
            selected = selections[prefix] = _keys_under(selections[()], prefix)
        return selected

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
        if candidates is not None or collation is not None:
            return candidates
        found = self._prefix_index(indexes, index_data, _str_equalities(query_plan), compound_only=True)
        if found is None:
            return None
        index_map, prefix = found
        storage_keys: set[Any] = set()
        for key in self._index_keys_under(index_map, prefix):
            storage_keys.update(index_map[key])
        return _MemoryIndexedCandidates(storage_keys)

    @override
    def scan_find_semantics(
        self,
        db_name: str,
        coll_name: str,
        semantics: EngineFindSemantics,
        *,
        context: ClientSession | None = None,
    ) -> AsyncIterable[Document]:
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
        keys = self._index_keys_under(index_map, prefix)
        if not _ordered_columns(keys, range(len(prefix), len(prefix) + len(sort_fields))):
            return None
        stored, buckets = coll.copy(), index_map.copy()
        assert semantics.limit is not None
        first = semantics.skip + semantics.limit

        def walk() -> Iterator[Any]:
            for key in _in_order(keys, descending=descending, first=first):
                for storage_key in stored.ordered_keys(buckets[key]):
                    yield stored[storage_key]

        return walk

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
