"""A malformed setting stops any `lps` command at start-up with its message (a real `lps` process)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.processes
def test_a_malformed_setting_stops_any_lps_command_at_start_up_with_its_message():
    environment = os.environ | {"LPS_SOURCE_RATES": "coupang=2/s,naver=lots"}
    finished = subprocess.run(
        [sys.executable, "-m", "tools.lps", "stats"], env=environment, capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 2
    assert finished.stderr.strip() == (
        "lps: LPS_SOURCE_RATES='coupang=2/s,naver=lots': naver='lots': expected COUNT/s or COUNT/m (e.g. naver=2/s)"
    )
