"""The engine `lps mongo` serves: mongoeco's, with LPS's patch when the installed mongoeco is one it was verified on
(`embedded_store.version`). The patched engines are built in layers, one idea per module, each keeping mongoeco's
answers document for document and in the same order (README.md, "What the patch changes"):

- `inserts`: a wire insert no longer scans every stored `_id` (both engines);
- `sqlite`: the SQLite engine's (`--data FILE`) lookups SQLite had no index for (unique-index array probes, TTL
  entries by document);
- `ordered_keys`: compound keys name every value of an array (change 1) and an index's keys kept in order (change 7);
- `planner`: a query's candidates narrowed by a compound index's equality prefix and bounds, or a `$in`'s buckets
  (changes 2, 2b, 2c, 2d);
- `counts`: a count answered from index keys (change 6);
- `index_walk`: a sorted, limited find read in index order (change 3).
"""

from __future__ import annotations

from typing import Any

from embedded_store._mongoeco import MemoryEngine, SQLiteEngine
from embedded_store.version import patch_applies


def create_engine(data_file: str | None = None, **memory_options: Any) -> MemoryEngine | SQLiteEngine:
    """The engine `lps mongo` serves: in a SQLite file, or in memory (`memory_options` go to the memory engine);
    patched when `patch_applies()`, mongoeco's own otherwise."""
    if not patch_applies():
        return SQLiteEngine(data_file) if data_file else MemoryEngine(**memory_options)
    # Imported only now: they use mongoeco's private names, which an unverified release may lack.
    from embedded_store.index_walk import IndexedReadsMemoryEngine
    from embedded_store.sqlite import FlatInsertSQLiteEngine

    return FlatInsertSQLiteEngine(data_file) if data_file else IndexedReadsMemoryEngine(**memory_options)
