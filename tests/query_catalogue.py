"""The query catalogue: every query LPS's own modules send during the tests, checked against the indexes
`ensure_indexes` creates, by MongoDB's rules.

A `pymongo.monitoring.CommandListener` registered for the test session sees every command of every client made in the
test process. For a find, count, distinct, aggregate (its leading `$match` and `$sort`), update, delete or
findAndModify it finds the call site: the first frame in LPS's packages (infra, service, actors, tools) below
pymongo's; a command a test sends itself has none and is not LPS's query. Each query's shape (fields and operator
kinds, sort) is checked once against the declared indexes (`infra.mongo.declared_indexes`):

- an index serves a query when its partial filter is implied by the query and it has a usable prefix: equality
  fields (`$eq`, a value, `$in`, `$exists: false`) first, then the query's sort (every sort field after them, in the
  index's order, all in its direction or all reversed; a sort field fixed by an equality may be left out), then one
  range (`$gt`/`$gte`/`$lt`/`$lte`, an anchored `$regex`, `$exists: true`) on the next field; it must bound something
  (an equality or a range on its first field) or give the sort;
- a sorted query must take its order from that index (no in-memory sort), unless an equality on a unique index or on
  `_id` leaves at most one document per value;
- `_id` equality or `$in` is served by the `_id` index; a `count` with an empty filter by the collection's metadata;
- a top-level `$or` when every branch (with the rest of the conjunction) is served: one index scan per branch.

A query no index serves is recorded with its call site; the autouse fixture in tests/conftest.py fails the test
that sent it, naming the call site. Processes a test starts (worker pools, `lps dev`) are not seen: their queries are
the same repository methods the in-process tests call.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from pymongo import monitoring

from infra.mongo import declared_indexes
from infra.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
#: LPS's own packages: a query's call site is the first frame in one of them.
LPS_ROOTS = tuple(str(ROOT / package) + "/" for package in ("infra", "service", "actors", "tools"))
QUERY_COMMANDS = frozenset({"find", "count", "distinct", "aggregate", "update", "delete", "findAndModify"})

EQUALITY, RANGE, RESIDUAL = "equality", "range", "residual"


@dataclass(frozen=True, slots=True)
class Index:
    name: str
    keys: tuple[tuple[str, int], ...]
    unique: bool = False
    partial: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Query:
    """One query as the server gets it: the collection, the filter, the sort (field, direction) and the command."""

    collection: str
    filter: Mapping[str, Any]
    sort: tuple[tuple[str, int], ...] = ()
    command: str = "find"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The index that serves a query (None: none does) and why not, when none does."""

    index: str | None
    reason: str = ""


def indexes_of(models: Iterable[Any]) -> list[Index]:
    """`IndexModel`s as the checker reads them."""
    found = []
    for model in models:
        document = model.document
        keys = tuple((name, int(direction)) for name, direction in document["key"].items())
        found.append(
            Index(document["name"], keys, bool(document.get("unique")), document.get("partialFilterExpression"))
        )
    return found


def _conditions(query_filter: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """Each top-level field's condition kind (and value): the conjunction's, `$and` flattened. A field with several
    conditions keeps the most useful (equality over range over residual)."""
    rank = {EQUALITY: 0, RANGE: 1, RESIDUAL: 2}
    found: dict[str, tuple[str, Any]] = {}

    def note(name: str, kind: str, value: Any) -> None:
        if name not in found or rank[kind] < rank[found[name][0]]:
            found[name] = (kind, value)

    pending = [query_filter]
    while pending:
        current = pending.pop()
        for name, value in current.items():
            if name == "$and":
                pending.extend(value)
            elif name.startswith("$"):
                continue  # $or, $nor, $expr, $text...: filtered on the way
            elif not isinstance(value, Mapping) or not any(str(key).startswith("$") for key in value):
                note(name, EQUALITY, value)
            else:
                for operator, operand in value.items():
                    if operator in ("$eq", "$in") or (operator == "$exists" and operand is False):
                        note(name, EQUALITY, operand)
                    elif (
                        operator in ("$gt", "$gte", "$lt", "$lte")
                        or (operator == "$exists" and operand)
                        or (operator == "$regex" and str(operand).startswith("^") and not value.get("$options"))
                    ):
                        note(name, RANGE, operand)
                    else:
                        note(name, RESIDUAL, operand)
    return found


def _implies(
    conditions: Mapping[str, tuple[str, Any]], query_filter: Mapping[str, Any], partial: Mapping[str, Any]
) -> bool:
    """Whether every document the query matches is in an index partial on `partial` (equalities and `$in`)."""
    for name, wanted in partial.items():
        kind, value = conditions.get(name, (RESIDUAL, None))
        stated = query_filter.get(name, value)
        if kind != EQUALITY:
            return False
        if isinstance(wanted, Mapping) and "$in" in wanted:
            values = stated["$in"] if isinstance(stated, Mapping) and "$in" in stated else [value]
            if not all(item in wanted["$in"] for item in values):
                return False
        elif isinstance(wanted, Mapping) and wanted.get("$exists") is True:
            if value is None:
                return False
        elif value != wanted:
            return False
    return True


def _serves(index: Index, query: Query, conditions: Mapping[str, tuple[str, Any]]) -> tuple[bool, bool, int]:
    """(bounds something, gives the sort, how many of its fields the query bounds) for one index, by the
    equality-sort-range rule."""
    if index.partial and not _implies(conditions, query.filter, index.partial):
        return False, False, 0
    fields = [name for name, _ in index.keys]
    position = 0
    while position < len(fields) and conditions.get(fields[position], ("",))[0] == EQUALITY:
        position += 1
    used = position
    sort = [(name, direction) for name, direction in query.sort if conditions.get(name, ("",))[0] != EQUALITY]
    sorted_by_index = not sort
    if sort:
        following = list(index.keys[position : position + len(sort)])
        names_match = [name for name, _ in following] == [name for name, _ in sort]
        same = all(a == b for (_, a), (_, b) in zip(following, sort, strict=False))
        reversed_ = all(a == -b for (_, a), (_, b) in zip(following, sort, strict=False))
        sorted_by_index = names_match and (same or reversed_)
        if sorted_by_index and conditions.get(sort[0][0], ("",))[0] == RANGE:
            used += 1
    elif position < len(fields) and conditions.get(fields[position], ("",))[0] == RANGE:
        used += 1
    return used > 0, sorted_by_index, used


def check(query: Query, indexes: list[Index]) -> Verdict:
    """The index that serves `query` by MongoDB's rules, or why none does."""
    conditions = _conditions(query.filter)
    kind_of_id = conditions.get("_id", ("",))[0]
    if kind_of_id == EQUALITY:
        return Verdict("_id_")
    if query.command == "count" and not query.filter:
        return Verdict("(collection count)")
    point = any(
        index.unique and len(index.keys) == 1 and conditions.get(index.keys[0][0], ("",))[0] == EQUALITY
        for index in indexes
    )
    every = [Index("_id_", (("_id", 1),), unique=True), *indexes]
    best: tuple[tuple[bool, int], str] | None = None
    for index in every:
        bounded, sorted_by_index, used = _serves(index, query, conditions)
        if (bounded and (sorted_by_index or point)) or (sorted_by_index and query.sort):
            # The sort from the index, then the most fields bounded; on a tie (MongoDB's planner races them) the first
            # declared.
            rank = (bounded and sorted_by_index, used)
            if best is None or rank > best[0]:
                best = (rank, index.name)
    if best is not None:
        return Verdict(best[1])
    if isinstance(query.filter.get("$or"), list) and query.filter["$or"]:
        # An $or is served when each branch is (with the rest of the conjunction): one index scan per branch.
        rest = {name: value for name, value in query.filter.items() if name != "$or"}
        branches = [check(Query(query.collection, {**rest, **branch}, query.sort, query.command), indexes)
                    for branch in query.filter["$or"]]  # fmt: skip
        if all(branch.index is not None for branch in branches):
            return Verdict(" | ".join(dict.fromkeys(str(branch.index) for branch in branches)))
    fields = ", ".join(f"{name} ({kind})" for name, (kind, _) in sorted(conditions.items())) or "no filter"
    sort = f", sorted by {list(query.sort)}" if query.sort else ""
    return Verdict(None, f"no index of {query.collection} serves {fields}{sort}")


def queries_of(command_name: str, command: Mapping[str, Any]) -> list[Query]:
    """The queries in one command (an update or delete command may hold several)."""
    collection = command.get(command_name)
    if not isinstance(collection, str):
        return []
    if command_name == "find":
        return [Query(collection, command.get("filter") or {}, _sort(command.get("sort")), "find")]
    if command_name in ("count", "distinct"):
        return [Query(collection, command.get("query") or {}, (), command_name)]
    if command_name == "findAndModify":
        return [Query(collection, command.get("query") or {}, _sort(command.get("sort")), command_name)]
    if command_name == "update":
        return [Query(collection, update.get("q") or {}, (), "update") for update in command.get("updates", [])]
    if command_name == "delete":
        return [Query(collection, delete.get("q") or {}, (), "delete") for delete in command.get("deletes", [])]
    if command_name == "aggregate":
        pipeline = list(command.get("pipeline") or [])
        match = pipeline[0].get("$match", {}) if pipeline and "$match" in pipeline[0] else {}
        rest = pipeline[1:] if match or (pipeline and "$match" in pipeline[0]) else pipeline
        sort = _sort(rest[0]["$sort"]) if rest and "$sort" in rest[0] else ()
        return [Query(collection, match, sort, "aggregate")]
    return []


def _sort(sort: Any) -> tuple[tuple[str, int], ...]:
    if not sort:
        return ()
    return tuple((name, int(direction)) for name, direction in dict(sort).items() if not isinstance(direction, Mapping))


def call_site(frame: FrameType | None, roots: tuple[str, ...] = LPS_ROOTS) -> str | None:
    """`path:line (qualname)` of the first frame under `roots` (None: a test's own query)."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if "/pymongo/" not in filename and filename != __file__ and "/asyncio/" not in filename:
            if filename.startswith(roots):
                return f"{Path(filename).relative_to(ROOT)}:{frame.f_lineno} ({frame.f_code.co_qualname})"
            if filename.startswith(str(ROOT)):
                return None  # a test's (or the bench's) own query
        frame = frame.f_back
    return None


@dataclass
class Catalogue(monitoring.CommandListener):
    """Records each LPS query's verdict: `unindexed` (cleared per test) and `served` (call site -> index), for the
    docs check."""

    indexes: dict[str, list[Index]]
    roots: tuple[str, ...] = LPS_ROOTS
    unindexed: list[str] = field(default_factory=list)
    served: dict[str, set[str]] = field(default_factory=dict)
    _verdicts: dict[str, Verdict] = field(default_factory=dict)
    _partials: frozenset[str] | None = None

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name not in QUERY_COMMANDS:
            return
        site = call_site(sys._getframe(1), self.roots)
        if site is None:
            return
        for query in queries_of(event.command_name, event.command):
            shape = _shape(query, self._partial_fields())
            verdict = self._verdicts.get(shape)
            if verdict is None:
                verdict = self._verdicts[shape] = check(query, self.indexes.get(query.collection, []))
            if verdict.index is None:
                self.unindexed.append(f"{site}: {query.command} {verdict.reason}")
            else:
                self.served.setdefault(site.split(" (")[-1].rstrip(")"), set()).add(
                    f"{query.collection}.{verdict.index}"
                )

    def _partial_fields(self) -> frozenset[str]:
        if self._partials is None:
            self._partials = frozenset(
                name for indexes in self.indexes.values() for index in indexes for name in (index.partial or {})
            )
        return self._partials

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


def _shape(query: Query, partial_fields: frozenset[str]) -> str:
    """What decides a verdict: the collection, command, each field's condition kind (and the values of fields a
    partial filter names), the sort."""
    conditions = {name: kind for name, (kind, _) in _conditions(query.filter).items()}
    values = {name: query.filter.get(name) for name in conditions if name in partial_fields}
    return json.dumps([query.collection, query.command, conditions, values, query.sort], sort_keys=True, default=str)


def catalogue_markdown(served: Mapping[str, Iterable[str]]) -> str:
    """The recorded catalogue as a table: each LPS function that sent a query, and the indexes that served them."""
    rows = [
        f"| `{site}` | {', '.join(f'`{index}`' for index in sorted(indexes))} |"
        for site, indexes in sorted(served.items())
    ]
    return "\n".join(
        [
            "# The query catalogue of the last test run (tests/query_catalogue.py)",
            "",
            "Every function of LPS that sent a query during the run, and the index that serves it by MongoDB's rules.",
            "",
            "| call site | collection.index |",
            "|---|---|",
            *rows,
            "",
        ]
    )


#: The indexes ensure_indexes creates (infra.mongo.declared_indexes), by collection, as the checker reads them.
INDEXES = {name: indexes_of(models) for name, models in declared_indexes(Settings()).items()}
