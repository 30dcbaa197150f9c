"""Reading the products of `lps submit` and `lps watch add` from a CSV or JSON file, each checked against the
API's rules before anything is sent."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.search_request import ProductSchema
from tools.cli_errors import UsageError, flatten_errors

#: The columns a products CSV may have.
CSV_COLUMNS = ("product_code", "keyword", "model_no", "target_price", "sources")


@dataclass(slots=True)
class InputRow:
    """One product of the file: where it is (`line 3`, `item 2`), what it asks for, and what is wrong with it."""

    where: str
    product: dict[str, Any]
    errors: list[str] = field(default_factory=list)


def read_products(path: Path) -> list[InputRow]:
    """Every product of a CSV (header: product_code,keyword[,model_no,target_price,sources]) or JSON file,
    each checked against the API's rules. Raises UsageError when the file itself cannot be used."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a products file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except OSError as failed:
        raise UsageError(f"{path}: cannot read it ({failed.strerror or failed})") from None
    rows = _json_rows(path, text) if path.suffix.lower() == ".json" else _csv_rows(path, text)
    if not rows:
        raise UsageError(f"{path}: no products in it")
    _check(rows)
    return rows


def _json_rows(path: Path, text: str) -> list[InputRow]:
    try:
        data = json.loads(text)
    except ValueError as bad:
        raise UsageError(f"{path}: not valid JSON ({bad})") from None
    items = data.get("products") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise UsageError(f'{path}: expected a list of products or {{"products": [...]}}')
    rows = []
    for index, item in enumerate(items):
        row = InputRow(f"item {index}", item if isinstance(item, dict) else {})
        if not isinstance(item, dict):
            row.errors.append(f"not an object: {json.dumps(item, ensure_ascii=False)[:60]}")
        rows.append(row)
    return rows


def _csv_rows(path: Path, text: str) -> list[InputRow]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in reader.fieldnames or []]
    except csv.Error as bad:
        raise UsageError(f"{path}: not a readable CSV ({bad})") from None
    if not header:
        raise UsageError(f"{path}: empty; the first line must be a header with product_code and keyword")
    reader.fieldnames = header
    for required in ("product_code", "keyword"):
        if required not in header:
            raise UsageError(
                f"{path}: the header has no {required} column (found: {', '.join(header)}; "
                f"expected: {', '.join(CSV_COLUMNS)})"
            )
    if unknown := [name for name in header if name not in CSV_COLUMNS]:
        raise UsageError(f"{path}: unknown column(s) {', '.join(unknown)} (known: {', '.join(CSV_COLUMNS)})")
    rows = []
    try:
        for record in reader:
            # The record's last line: its only one unless a quoted cell spans lines.
            rows.append(_csv_row(f"line {reader.line_num}", record, len(header)))
    except csv.Error as bad:
        raise UsageError(f"{path}: line {reader.line_num}: not readable as CSV ({bad})") from None
    return rows


def _csv_row(where: str, record: dict[str | None, Any], width: int) -> InputRow:
    row = InputRow(where, {})
    if None in record:
        row.errors.append(f"{width + len(record[None])} fields, the header has {width}")
    cells = {name: (value or "").strip() for name, value in record.items() if name is not None}
    row.product = {"product_code": cells["product_code"], "keyword": cells["keyword"]}
    if cells.get("model_no"):
        row.product["model_no"] = cells["model_no"]
    if price := cells.get("target_price"):
        try:
            row.product["target_price"] = int(price.replace(",", ""))
        except ValueError:
            row.errors.append(f"target_price: not a whole number of won: {price!r}")
    if sources := cells.get("sources"):
        row.product["sources"] = [name.strip() for name in re.split(r"[;,]", sources) if name.strip()]
    return row


_PRODUCT = ProductSchema()


def _check(rows: list[InputRow]) -> None:
    """The API's own rules (ProductSchema), and each product_code once: the gateway would keep the first."""
    first_seen: dict[str, str] = {}
    for row in rows:
        if not row.product and row.errors:
            continue
        row.errors += flatten_errors(_PRODUCT.validate(row.product))
        code = row.product.get("product_code")
        if isinstance(code, str) and code:
            if code in first_seen:
                row.errors.append(f"product_code: {code} repeats {first_seen[code]}")
            else:
                first_seen[code] = row.where
