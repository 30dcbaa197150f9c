"""How LPS writes a time and a table for a person: the dashboard's times, the CLI's answers (`lps search`, `lps jobs`,
`lps stats` …), its reports (`lps report`) and `lps dev`'s results. Machines get JSON and ISO 8601; people get
these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any


def utc_text(value: object) -> str:
    """A time (a datetime, or an API's ISO text such as "2026-12-01T01:45:46.547000+00:00") to the second, in UTC,
    with its zone: "2026-12-01T01:45:46Z"; "" for none, and text that is not a time as it is."""
    if not value:
        return ""
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            return str(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def cell(value: Any) -> str:
    """One value as a table shows it: `-` for nothing, yes/no, thousands apart, a time by `utc_text`."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return utc_text(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], *, empty: str | None = None) -> str:
    """A plain aligned table: a header, then one line per row; a column of numbers (and gaps) right-aligned, any
    other left-aligned. `empty`: a line said under the header when there are no rows."""
    cells = [[cell(row.get(column)) for column in columns] for row in rows]
    widths = [max([len(column), *(len(line[index]) for line in cells)]) for index, column in enumerate(columns)]
    numeric = [
        any(_is_number(row.get(column)) for row in rows)
        and all(_is_number(row.get(column)) or row.get(column) is None for row in rows)
        for column in columns
    ]

    def line(values: Sequence[str]) -> str:
        parts = (
            value.rjust(width) if right else value.ljust(width)
            for value, width, right in zip(values, widths, numeric, strict=True)
        )
        return "  ".join(parts).rstrip()

    lines = [line(list(columns)), *(line(values) for values in cells)]
    if not rows and empty is not None:
        lines.append(empty)
    return "\n".join(lines)
