"""A query's candidates narrowed through LPS's indexes (memory engine): changes 2, 2b, 2c, 2d and 2e. (The
index walk of change 3 and the counts of change 6 read the same conjunction: `embedded_store.index_walk`,
`embedded_store.counts`.)

2. An equality on the leading field(s) of a plain compound index narrows the candidates to that index's entries
   under that prefix (`_indexed_candidate_storage_keys_for_plan_locked`), when mongoeco found no single-field index
   itself. Only for top-level fields and `str` values: a document matches `{f: "v"}` exactly when `f` is "v" or an
   array holding "v", that is when one of its keys has ("str", "v") there (change 1). The candidates go through
   mongoeco's code from there as a single-field bucket would (natural order, the full filter applied to each).

The active set (memory engine; issue 24). A backlog is the active set grown to 100,000 PENDING jobs, and mongoeco's
count reads every matching document (~100 µs each over the wire: 2 s for 20,000), as does any find whose only
single-field equality is `active: true` (a single-field index on it would hold the whole backlog). LPS reads the
active set through compound indexes partial on `active: true` (infra/mongo.py `walk_indexes`); two changes use them:

2b. A conjunction of equalities on leading fields of a compound index (`str` or `bool` values, fields that must be
   missing: `$exists: false`, whose key component is None), on a plain index or a partial one whose filter the
   conjunction states too (`_keyed_fields`), narrows the candidates to the keys under that prefix (two fields at least,
   or one that is not a `str` followed by a bound on the next: the watches' `paused: false, next_run_at <= now`), and,
   for each datetime bound on a later field of the index, to the keys whose component passes it (`_within_bound`; the
   fields in between may hold anything, a key names every field). It is taken when it gives fewer candidates than
   mongoeco's own narrowing. Keys of another type than the bound's stay candidates: mongoeco orders values of different
   types where MongoDB brackets types (`run_after: 1` is `$lt` a date to mongoeco), and mongoeco's filter then decides,
   so its answers are kept. A sorted find that change 3 could walk takes 2b's candidates instead when there are few
   (fewer than the square root of the page x the keys the walk may cross, or a tenth of those keys, and at most
   `CANDIDATES_SORTED`: the delayed jobs of a backlog, which a walk of every PENDING job's key may reach only at its far
   end, not a status's history), and sorts them itself by their sort fields' keys under the walk's conditions
   (`_candidates_in_order`), where mongoeco's sort compares values in Python at ~15 µs apiece.
2c. A `$in` of `str` or ObjectId values on a top-level field with a single-field index that the query may use
   (mongoeco's `query_can_use_index`: a partial index only when the query implies its filter) narrows the candidates
   to the union of the values' buckets, where mongoeco only narrows by an equality and so filters every stored
   document (a `$in` of 200 ids took 3 s at 2,000 jobs). A document matches `{f: {$in: [a, b]}}` exactly when `f`
   is a or b or an array holding one of them, that is when it is under a's or b's key (mongoeco's single-field keys
   name every element of an array). Taken when mongoeco found no narrower candidates; the full filter is then
   applied to each, as for an equality's bucket.
2e. A `$in` of `str` or ObjectId values on `_id` (LPS's `update_many` of a batch by id) narrows the candidates to
   those ids' storage keys (`_id_candidates`): mongoeco looks `_id` up only for an equality.
2d. A find whose conjunction holds such a `$in` matches it against the values prepared once (a set lookup), not per
   document (`_MembershipMatch`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from operator import ge, gt, le, lt
from typing import Any, TypeIs, cast, override

from embedded_store._mongoeco import (
    AndCondition,
    CompiledQuery,
    Document,
    EngineFindSemantics,
    EngineIndexRecord,
    EqualsCondition,
    ExistsCondition,
    GreaterThanCondition,
    GreaterThanOrEqualCondition,
    InCondition,
    LessThanCondition,
    LessThanOrEqualCondition,
    QueryEngine,
    QueryNode,
    _MemoryIndexedCandidates,
    query_can_use_index,
)
from embedded_store.inserts import _KEYED_ID_TYPES
from embedded_store.ordered_keys import IndexData, IndexKey, KeptOrderMemoryEngine, _KeyBound


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


class PlannedMemoryEngine(KeptOrderMemoryEngine):
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
            # One field fixed is enough when it is not a `str` (changes 2 and 3 serve those) and a bound on the next
            # one narrows the keys to a range: the watches' due pass, `paused: false`, `next_run_at <= now` on
            # (paused, next_run_at).
            bounded_next = len(fields) > len(prefix) and any(
                bound[0] == fields[len(prefix)] for bound in conjunction.bounds
            )
            one_not_str = len(prefix) == 1 and not isinstance(conjunction.equal.get(fields[0]), str)
            if len(prefix) < 2 and not (one_not_str and bounded_next):
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
        if candidates is None and (by_id := self._id_candidates(query_plan)) is not None:
            return by_id
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

    def _id_candidates(self, query_plan: QueryNode) -> _MemoryIndexedCandidates | None:
        """Change 2e: a `$in` of `str` or ObjectId values on `_id` (an `update_many` of a batch by id) narrows the
        candidates to those ids' storage keys, where mongoeco looks up only an `_id` equality and filters every stored
        document otherwise. Two such values are equal in BSON exactly when their storage keys are (see
        `embedded_store.inserts`), and `_id` is never an array, so a document matches exactly when its storage key is
        one of them; keys of no stored document are dropped by mongoeco's `ordered_keys`, and the full filter is
        applied to each candidate as for an equality's bucket."""
        for node in _clauses(query_plan):
            if _listed_in(node) and node.field == "_id":
                return _MemoryIndexedCandidates({self._storage_key(value) for value in node.values})
        return None

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
