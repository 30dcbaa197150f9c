"""Counts answered from index keys (memory engine): change 6.

6. A `count` whose filter is exactly a conjunction of change 2b (`embedded_store.planner`) on a prefix of one index
(every field of it in the prefix, the bound on the field after it), with no skip, limit, collation or text query, is the
sum of its keys' bucket sizes: no document read (`count_find_semantics`, `_count_keyed_locked`). A key holding an array
("list" tag, `_index_keys` records the array beside its elements) or a bound field of another type sends the count back
to mongoeco: only it counts such a document once and by its own comparison. A hint naming another index does too.
A `str` equality on a dotted path counts too (the dead page's totals, `last_error.type`): `_index_keys` keys
every value found along the path, a document once per distinct value, so one key's bucket holds each matching
document once (an array's elements are among those values, as mongoeco matches an equality on one). On a backlog
of 20,000 PENDING jobs (mongoeco's count read each one: ~2 s over the wire) a count takes ~5 ms; on MongoDB the same
`count` is a COUNT_SCAN of the keys.
tests/integration/test_embedded_mongo.py compares both engines on every count and find the gateway, the dashboard and
the reconciler ask, with documents LPS never stores among them (arrays along a path too).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any, override

from embedded_store._mongoeco import (
    ClientSession,
    EngineFindSemantics,
    EngineIndexRecord,
)
from embedded_store.ordered_keys import IndexData
from embedded_store.planner import PlannedMemoryEngine, _conjunction


class CountingMemoryEngine(PlannedMemoryEngine):
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
