"""A sorted, limited find read in index order (memory engine): change 3.

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
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator
from datetime import UTC
from operator import itemgetter
from typing import Any, override

from embedded_store._mongoeco import (
    ClientSession,
    Document,
    DocumentCodec,
    EngineFindSemantics,
    EngineIndexRecord,
    MemoryCollection,
    MemoryEngine,
    MemoryIndexMap,
    QueryEngine,
    enforce_deadline,
    iter_filtered_documents,
    stream_finalize_documents,
)
from embedded_store.counts import CountingMemoryEngine
from embedded_store.ordered_keys import _ORDERED_TAGS, IndexData
from embedded_store.planner import _conjunction, _str_equalities, _with_membership_sets

#: The most candidates of change 2b a sorted find sorts itself (each one's document read for its sort key).
CANDIDATES_SORTED = 20_000
#: A sorted find sorts change 2b's candidates when the walk would cross this many keys per candidate or more.
CROSSED_PER_CANDIDATE = 10


class IndexedReadsMemoryEngine(CountingMemoryEngine):
    """The memory engine `lps mongo` serves: flat inserts, plus every compound-index read of the patch (README.md)."""

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
