"""The mongoeco names the patch leans on, private ones included, imported in one place: on a mongoeco release the
patch was not verified on they may be gone, and then `embedded_store.version.patch_applies` refuses the patch
rather than an import failing (nothing that uses them runs unless it applies)."""

from __future__ import annotations

# The two engines are the fallback as well as the bases: an unverified mongoeco still has to provide them.
from mongoeco.engines.memory import MemoryEngine
from mongoeco.engines.sqlite import SQLiteEngine

try:
    # Private names: on an unverified mongoeco they may be gone; the modules that use them are imported only once
    # `patch_applies()` (embedded_store.engines).
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
    MISSING_NAME: ImportError | None = missing
else:
    MISSING_NAME = None

__all__ = [
    "MISSING_NAME",
    "AndCondition",
    "ClientSession",
    "CompiledQuery",
    "Document",
    "DocumentCodec",
    "EngineFindSemantics",
    "EngineIndexRecord",
    "EqualsCondition",
    "ExistsCondition",
    "GreaterThanCondition",
    "GreaterThanOrEqualCondition",
    "InCondition",
    "LessThanCondition",
    "LessThanOrEqualCondition",
    "MemoryCollection",
    "MemoryEngine",
    "MemoryIndexMap",
    "ObjectId",
    "QueryEngine",
    "QueryNode",
    "SQLiteEngine",
    "_MemoryIndexedCandidates",
    "enforce_deadline",
    "iter_filtered_documents",
    "json_path_for_field",
    "path_array_prefixes",
    "query_can_use_index",
    "sqlite_write_scope",
    "stream_finalize_documents",
]
