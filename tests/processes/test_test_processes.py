"""The suite's own parallel run (scripts/test: pytest-xdist, `--dist loadgroup`) keeps a module's `xdist_group`
together: tests/processes/test_rabbitmq_cluster.py's tests share one cluster's ports and node names and must run in one
test process. pytest 9.2 with pytest-xdist 3.8 spread such tests over every process without a word
(pytest-dev/pytest-xdist#1386); this notices it on the next upgrade of either."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

#: Starts pytest with three worker processes.
pytestmark = pytest.mark.processes

GROUPED = r"""
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("shared")


@pytest.mark.parametrize("number", range(6))
def test_grouped(number):
    with Path(__file__).with_name("workers.txt").open("a", encoding="utf-8") as workers:
        workers.write(os.environ["PYTEST_XDIST_WORKER"] + "\n")
"""


def test_a_modules_xdist_group_runs_all_its_tests_in_one_test_process(tmp_path: Path):
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    # As scripts/test runs the suite (its -n and --dist), in a folder of its own: no conftest of ours applies.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "3", "--dist", "loadgroup"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ran_in = (tmp_path / "workers.txt").read_text(encoding="utf-8").split()
    assert len(ran_in) == 6, ran_in
    assert len(set(ran_in)) == 1, ran_in
