"""What the CLI prints, as units: usage errors, times with their zone, progress off a terminal, messages."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from infra.display import utc_text
from infra.settings import Settings, SettingsError
from tools.cli import _error_type, build_parser, cmd_deprecated_retry, cmd_redrive
from tools.cli_errors import flatten_errors
from tools.progress import ProgressLine
from tools.results import RESULT_COLUMNS, result_row, write_results


@pytest.mark.parametrize(
    ("given", "taken"), [("blocked", "BLOCKED"), ("Dead_Letter", "DEAD_LETTER"), (" TIMEOUT ", "TIMEOUT")]
)
def test_an_error_type_is_taken_in_any_case(given: str, taken: str):
    assert _error_type(given) == taken


@pytest.mark.parametrize("given", ["bad type!", "", "1X", "$ne"])
def test_a_value_that_cannot_be_an_error_type_is_a_usage_error(given: str):
    with pytest.raises(argparse.ArgumentTypeError, match="is not an error type"):
        _error_type(given)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("2026-12-01T01:45:46.547000+00:00", "2026-12-01T01:45:46Z"),
        ("2026-12-01T10:45:46+09:00", "2026-12-01T01:45:46Z"),
        ("2026-12-01T01:45:46", "2026-12-01T01:45:46Z"),
        (None, ""),
    ],
)
def test_times_are_shown_to_the_second_with_their_zone(value: str | None, shown: str):
    assert utc_text(value) == shown


def test_progress_off_a_terminal_is_one_line_per_change_at_most_every_few_seconds():
    stream = io.StringIO()
    progress = ProgressLine(stream, every=3600)
    for done in range(100):
        progress.update(f"  {done}/100 ended")
    progress.close()

    assert "\r" not in stream.getvalue()
    assert stream.getvalue().splitlines() == ["  0/100 ended", "  99/100 ended"]  # the first, then the last


def test_one_fields_messages_read_as_separate_sentences():
    errors = {"products": {"0": {"keyword": ["Length must be between 1 and 200.", "must not be blank"]}}}
    assert flatten_errors(errors) == ["products.0.keyword: Length must be between 1 and 200; must not be blank"]


def test_results_written_as_json_keep_korean_as_korean(tmp_path: Path):
    out = tmp_path / "results.json"
    write_results([{"product_code": "K-1", "title": "햇반 210g 24개"}], out)
    assert "햇반 210g 24개" in out.read_text(encoding="utf-8")
    assert json.loads(out.read_text(encoding="utf-8"))


def test_a_results_row_carries_what_leaves_the_lowest_in_doubt_in_one_cell():
    doubts = ["priced far under the others: the lowest, 12,900, is 36% of the 34,900 most offers ask"]
    job = {"status": "DONE", "result": {"outcome": "FOUND", "complete": True, "doubts": doubts * 2}}
    assert result_row(job)["doubts"] == f"{doubts[0]}; {doubts[0]}"
    assert result_row({"status": "DONE", "result": {"outcome": "FOUND", "complete": True}})["doubts"] is None


def test_the_help_names_redrive_and_hides_its_old_name_retry_which_still_takes_the_same_options():
    """RETRY is an attempt's outcome (AttemptOutcome.RETRY); the operator's action is `lps redrive`."""
    parser = build_parser()
    options = ["--dead", "--error-type", "blocked", "--since", "2d", "--dry-run", "--gateway", "http://gw"]

    old, new = parser.parse_args(["retry", *options]), parser.parse_args(["redrive", *options])

    assert "redrive" in parser.format_help()
    assert "retry" not in parser.format_help()
    assert (new.run, old.run) == (cmd_redrive, cmd_deprecated_retry)
    assert vars(old) | {"command": "redrive", "run": cmd_redrive} == vars(new)


PORT_FLAGS = [
    ["dev", "--gateway-port"],
    ["dev", "--mongo-port"],
    ["dev", "--shop-port"],
    ["dev", "--receiver-port"],
    ["gateway", "--port"],
    ["mongo", "--port"],
    ["receiver", "--port"],
    ["demo-shop", "--port"],
]


@pytest.mark.parametrize("command", PORT_FLAGS, ids=lambda command: " ".join(command))
@pytest.mark.parametrize("value", ["99999", "0", "-1", "http"])
def test_a_port_out_of_range_is_a_usage_error_naming_its_flag(
    capsys: pytest.CaptureFixture[str], command: list[str], value: str
):
    """`lps dev --gateway-port 99999` answered "unexpected error: OverflowError", exit 1."""
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([*command, value])

    assert exited.value.code == 2
    assert f"argument {command[-1]}: must be a port number from 1 to 65535, not {value!r}" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["LPS_HTTP_PORT", "LPS_DEV_MONGO_PORT", "LPS_DEV_SHOP_PORT", "LPS_DEV_RECEIVER_PORT"])
def test_a_port_setting_out_of_range_is_refused_by_name(name: str):
    with pytest.raises(SettingsError, match=f"{name}='99999': must be between 1 and 65535"):
        Settings.from_env({name: "99999"})


def test_the_readmes_demo_table_is_what_the_demo_prints():
    """The README showed a DONE search whose delivery was still PENDING: the demo waits for every delivery to end."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("```\nproduct_code  lowest_price") + 4 :]
    lines = [line for line in block[: block.index("```")].splitlines() if line and line != "..."]
    header, *rows = (line.split() for line in lines)

    assert tuple(header) == RESULT_COLUMNS
    assert rows
    for row in rows:
        assert len(row) == len(RESULT_COLUMNS), row
        if row[-1] == "DONE":
            assert row[RESULT_COLUMNS.index("delivery_status")] == "DONE", row
