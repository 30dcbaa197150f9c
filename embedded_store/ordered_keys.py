"""Compound keys that name every value of an array (change 1) and an index's keys kept in order (change 7): what the
memory engine's index reads stand on.

Reads (memory engine only; `lps mongo --data FILE`, the SQLite engine, is left as mongoeco has it). mongoeco's
`MemoryEngine` narrows a query's candidates through an index only for an equality on a single-field index
(`_indexed_candidate_storage_keys_for_plan_locked`); any other query filters every stored document, and a sorted
one then sorts all that match (`scan_find_semantics`: ~9 µs a document, ~450 ms at 50,000 jobs), where MongoDB reads
`created_at_desc`, `status_created_at`, `product_created_at` (infra/mongo.py) in order and stops after the page.
An index's data is a hash map from key tuples (one `bson_equality_key` per field) to storage keys, kept by
`_update_indexes_locked` on every write path (insert, update, replace, delete, TTL purge, inside transactions
through the same views), which computes a document's keys with `_index_keys` when it adds them and again when it
removes them. These changes:

1. Compound keys name every value of an array field (`_index_keys`), as mongoeco's single-field keys and its
   unique checks (`_unique_index_keys`) already do; mongoeco records only an array's first value there (the array
   itself), so a document whose `status` is ["A"] would be missing under "A". Adding and removing both go through
   `_index_keys`, so they stay symmetric; a document without arrays gets the very key tuple mongoeco gives it.

7. An index's keys in order (`_OrderedKeys`, a `sortedcontainers.SortedKeyList`), kept for every index the planner, the
   counts and the index walk read. An index's buckets are an immutable rpds HashTrieMap that every write to the index
   replaces, so an order is made for one version of the map and holds while the map holds that version;
   `_update_indexes_locked`, mongoeco's one path for a document's index entries (insert, update, replace, delete, TTL
   purge), moves it on to the next version by the written document's keys that came or went (O(log n) each). Anything
   else that changes a map (an index rebuilt, a transaction's undo) leaves the order behind, and the next read makes it
   again from the keys (O(n log n), once). So the keys under a prefix are a range of the order (changes 2, 2b, 6; with a
   datetime bound on the field after the prefix, a narrower range), a walk reads its keys a run at a time (change 3),
   and whether its sort columns hold one ordered tag is read from counts kept per position, over the whole index. A key
   with a tag that Python cannot order as mongoeco does (an array's "list", a document, a NaN) has no place in an order:
   while an index holds one, its questions are a pass over its listed keys (`_ListedKeys`), as before this change, and
   the documents LPS stores never make one. The walk reads the version of its find, taken under the lock with the
   documents: a run is read without an await in it, and once a write has moved the order on between two runs, the rest
   comes from that version's own keys. tests/unit/test_embedded_mongo_order.py compares every answer of an order with
   the listed keys' as keys come and go and in the middle of a walk; tests/integration/test_embedded_mongo.py counts the
   keys a listing page reads at two sizes while jobs come and go.

8. A SEARCH job's `words` (`q=`, the index `words_created_at` (words, created_at, _id)) is an array of strings, and
   `extract_values` gives an array's elements and the array itself, so change 1 keyed every job under its array
   ("list" tag) too: a key no order can place, so change 7 kept no order for the index and every `q=` page was a
   pass over all its keys (~130 ms at 10,000 jobs, growing with them). A top-level field holding a non-empty array
   of only `str` values is keyed by its strings alone in a compound index (`_index_keys`): every read of a compound
   index's keys asks only for `str`, `bool` or missing-field equalities, datetime bounds and sort fields (never an
   array's own key), so what they find is unchanged, and a document is still under one key per distinct string,
   counted once by change 6 for an equality on one. Any other array keeps mongoeco's keys (the array too).
   tests/integration/test_embedded_mongo.py compares the `q=` finds and counts with mongoeco's and counts the keys a
   page reads.
"""

from __future__ import annotations

import functools
import heapq
import logging
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from itertools import compress, islice, repeat
from operator import eq, ge, gt, itemgetter, le, lt
from typing import Any, cast, override

from sortedcontainers import SortedKeyList

from embedded_store._mongoeco import (
    Document,
    MemoryIndexMap,
    ObjectId,
    QueryEngine,
)
from embedded_store.inserts import FlatInsertMemoryEngine

log = logging.getLogger(__name__)


#: Key tags (`bson_equality_key`) whose values Python orders as mongoeco sorts the stored values (see index_walk).
_ORDERED_TAGS = frozenset({"str", "objectid", "datetime"})
#: A missing field's None in the kept order (below every tag), and a component above every key under a prefix.
_MISSING_FORM = ("",)
_ABOVE_EVERY_TAG = ("\U0010ffff",)

type IndexKey = tuple[Any, ...]
#: One collection's index maps by index name, as mongoeco types them (MemoryIndexMap in practice).
type IndexData = dict[str, dict[IndexKey, set[Any]]]


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


class KeptOrderMemoryEngine(FlatInsertMemoryEngine):
    """The memory engine with flat inserts, compound keys that name every value of an array (change 1) and its indexes'
    keys kept in order (change 7)."""

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
            value = document.get(field) if "." not in field else None
            if isinstance(value, list) and value and all(isinstance(element, str) for element in value):
                # Change 8: an array of strings is keyed by its strings alone, not also as an array.
                components: set[Any] = {self._index_equality_key(element) for element in value}
            else:
                values = QueryEngine.extract_values(document, field)
                components = {self._index_equality_key(value) for value in values} if values else {None}
            keys = [(*key, component) for key in keys for component in components]
        return set(keys)
