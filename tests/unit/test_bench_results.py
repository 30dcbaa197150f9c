"""The benchmark runner's results file: a run of some figures keeps the mode's other figures, marked with
the run that measured them."""

from __future__ import annotations

import json
from pathlib import Path

from bench.__main__ import carry_over


def test_a_run_of_some_figures_keeps_the_other_figures_of_the_modes_last_run_marked_with_their_run(tmp_path: Path):
    previous = {
        "mode": "full",
        "started_at": "2026-11-29T22:57:00+00:00",
        "command": "python -m bench --full",
        "machine": {"cores": 2},
        "figures": {"search": {"value": 0.88}, "pacing": {"value": 2.0}},
    }
    path = tmp_path / "full.json"
    path.write_text(json.dumps(previous))
    now = {"mode": "full", "started_at": "2026-12-01T01:00:00+00:00", "figures": {"pacing": {"value": 1.0}}}

    merged = carry_over(now | {"failures": {}}, path)

    assert merged["figures"]["pacing"] == {"value": 1.0}
    taken_in = {"started_at": previous["started_at"], "command": previous["command"], "machine": {"cores": 2}}
    assert merged["figures"]["search"] == {"value": 0.88, "taken_in": taken_in}
    assert carry_over(now | {"mode": "quick", "failures": {}}, path)["figures"] == now["figures"]
