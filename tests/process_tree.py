"""Finding processes by ancestry and command line (Linux /proc), to prove none is left behind."""

from __future__ import annotations

from pathlib import Path


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: split after its closing one.
    return int(stat.rsplit(")", 1)[1].split()[1])


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def all_pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def descendants(root: int) -> set[int]:
    parents = {pid: _parent(pid) for pid in all_pids()}
    found: set[int] = set()
    frontier = {root}
    while frontier:
        children = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= children
        frontier = children
    return found


def chromium_processes(pids: set[int] | None = None) -> set[int]:
    candidates = all_pids() if pids is None else pids
    return {pid for pid in candidates if "chromium" in command_line(pid) and "--type=" not in command_line(pid)}


def chromium_of(queue_prefix: str) -> set[int]:
    """The Chromium main processes of the LPS workers with this queue prefix (`--lps-owner=<prefix><host>:<pid>`),
    wherever their parents went: what another test's browsers, running beside this one, never are."""
    return {pid for pid in chromium_processes() if f"--lps-owner={queue_prefix}" in command_line(pid)}


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)}


def _state(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("State:"):
                return line.lower()
    except OSError:
        return "zombie"
    return ""
