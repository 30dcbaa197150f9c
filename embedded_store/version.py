"""The guard on mongoeco's release. The patch is verified on mongoeco 4.11.0 only, and pyproject.toml's `embedded` extra
pins exactly that release (and rpds-py, whose map `embedded_store.ordered_keys` reads, exactly the one it was measured
with). On any other mongoeco `create_engine` serves mongoeco's own engines,
unpatched, and logs one warning (`patch_applies`): correct answers, but costs that grow with the collection. Every
change of the patch keeps mongoeco's results, document for document and in the same order; a query that does not fit a
change's preconditions takes mongoeco's own path, unchanged.

README.md beside this module, "Upgrading mongoeco", says how to move to another release.
"""

from __future__ import annotations

import functools
import importlib.metadata
import logging

from embedded_store._mongoeco import (
    MISSING_NAME,
)

log = logging.getLogger(__name__)


#: The mongoeco releases the patch was compared with, line by line (README.md, "Upgrading mongoeco"); the `embedded`
#: extra in pyproject.toml pins the same release.
VERIFIED_MONGOECO = frozenset({"4.11.0"})


def installed_mongoeco() -> str:
    return importlib.metadata.version("mongoeco")


@functools.cache
def patch_applies() -> bool:
    """Whether the installed mongoeco is one this module was verified on. Otherwise mongoeco's own engines are served
    (correct, but inserts and the listing's reads grow with the collection), and this says so once per process."""
    installed = installed_mongoeco()
    if installed in VERIFIED_MONGOECO and MISSING_NAME is None:
        return True
    log.warning(
        "mongoeco %s is not a version the embedded store's patch was verified on (%s)%s: serving mongoeco's own "
        "engine, unpatched (its inserts and the job listing's reads grow with the collection); see 'Upgrading "
        "mongoeco' in embedded_store/README.md",
        installed,
        ", ".join(sorted(VERIFIED_MONGOECO)),
        f", and {MISSING_NAME}" if MISSING_NAME is not None else "",
    )
    return False
