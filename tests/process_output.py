"""A child process's output as a test reads it: its stdout (stderr joined to it) line by line as it comes, to wait for
a line, to show the last of it when an assertion fails, and to read the rest once the process ended."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

#: How much of the output a failure shows: its end.
TAIL_CHARS = 3000
ROOT = Path(__file__).resolve().parents[1]
#: A traceback frame in LPS's own files (the repository's, not its .venv's).
OWN_FRAME = re.compile(rf'File "{re.escape(str(ROOT))}/(?!\.venv/)')
#: CPython's own first words when Ctrl-C lands while the interpreter starts: a traceback, a fatal error in site's
#: import (which may end with the thread dump's "<no Python frame>"), or `-m` failing to import runpy.
PYTHON_START_UP_FAILURE = ("Traceback", "Fatal Python error", "Could not import runpy module")


def interrupted_while_python_starts(text: str) -> bool:
    """Python's own report of a Ctrl-C that came while the interpreter was still starting (site, runpy, importlib),
    before LPS's first line: a KeyboardInterrupt traceback (or fatal error) with no frame of LPS's code in it. No code
    of LPS runs there to catch it; from tools/lps.py's first line on, a Ctrl-C during the imports ends `lps` quietly,
    so a traceback through any of LPS's own files is a failure."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return (
        text.strip().startswith(PYTHON_START_UP_FAILURE)
        and "KeyboardInterrupt" in lines
        and not any(OWN_FRAME.search(line) for line in lines)
    )


@dataclass
class ProcessOutput:
    """The lines `process` has written so far; reading them starts when this is made (a task on the running loop).

    A subclass names the process in failures (`label`) and adds what its tests know of it."""

    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list, init=False)
    reader: asyncio.Task[None] = field(init=False)
    #: What a failure to see a line names first.
    label: ClassVar[str] = "the process"

    def __post_init__(self) -> None:
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip())

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def wait_for(self, fragment: str, within: float) -> None:
        """Until a line holds `fragment`; fails, showing the output's end, if the process exits or `within` seconds
        pass first."""
        deadline = time.monotonic() + within
        while not any(fragment in line for line in self.lines):
            if self.process.returncode is not None or time.monotonic() > deadline:
                raise AssertionError(f"{self.label}: no {fragment!r} in its output:\n{self.text[-TAIL_CHARS:]}")
            await asyncio.sleep(0.05)

    async def read_to_end(self, within: float | None = None) -> None:
        """The rest of the output, once the process ended: until its stdout closes, or at most `within` seconds (a
        child that outlived it may hold the pipe open)."""
        if within is None:
            await self.reader
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.reader, within)
