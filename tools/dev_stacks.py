"""The `lps dev` stacks running on this machine, as each records itself: which store each one's jobs are in.

A stack writes one small file (`<pid>.json` in LPS_DEV_STACKS_DIR) once it runs and removes it when it stops; a
command that reads the store without LPS_MONGO_URL (`lps report`) takes the one stack's store rather than guessing a
port, and refuses to guess between several. A stack killed outright leaves its file behind: a file whose process is
gone is ignored and removed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import psutil


@dataclass(frozen=True, slots=True)
class DevStackRecord:
    pid: int
    #: The store the stack's processes use (its embedded server, or the LPS_MONGO_URL it was given).
    mongo_url: str
    mongo_db: str
    #: The gateway's base URL.
    gateway: str


@contextlib.contextmanager
def recorded(directory: Path, record: DevStackRecord) -> Iterator[Path]:
    """The stack is listed while the block runs."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{record.pid}.json"
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(asdict(record)), encoding="utf-8")
    partial.replace(path)  # a reader never sees half a file
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def running_stacks(directory: Path) -> list[DevStackRecord]:
    """The stacks whose process still runs, oldest pid first; the files of stacks that died are removed."""
    stacks = []
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        try:
            record = DevStackRecord(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            continue  # being written or not ours
        if psutil.pid_exists(record.pid):
            stacks.append(record)
        else:
            path.unlink(missing_ok=True)
    return sorted(stacks, key=lambda stack: stack.pid)
