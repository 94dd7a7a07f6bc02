#!/usr/bin/env python3
"""SPEC §2's `fasting_summary.csv` in vectorized polars from a Parquet dataset of `simharness generate
--format parquet` (users.parquet, meals.parquet, rejected_rows.parquet): the peer of fasting_polars.py,
which reads the CSV files of the same seed, and the same summary byte for byte.

    python3 fasting_polars_parquet.py --input DIR --out FILE [--min-fast 10800]

The typed tables hold only well-formed rows (each field the canonical text of its type), so they are
read as typed columns, with no parsing; the rows of rejected_rows are parsed as CSV lines by
fasting_polars.py's rules. Every row keeps its CSV line number (rejected_rows' `line`; a typed row's is
its place among them), which decides which of two duplicates comes first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

from fasting_polars import (DECIMAL, ENGINE, INT64_MAX, INTEGER, MAX_MEAL_S, MEAL_COLUMNS, MEAL_TYPES,
                            PROTOCOL_LIMIT_S, USER_COLUMNS, is_negative, run_cli,
                            summarize_checked)

DECIMALS = ["kcal", "protein_g", "carbs_g", "fat_g"]


def rejected_lines(directory: Path, table: str) -> pl.DataFrame:
    """The rejected rows of `table`: `row` (CSV line − 2, as fasting_polars.py numbers rows) and `line` (the text)."""
    return (pl.scan_parquet(directory / "rejected_rows.parquet").filter(pl.col("table") == table)
            .select((pl.col("line") - 2).alias("row"), pl.col("raw").alias("line")).sort("row").collect(engine=ENGINE))


def typed_rows(path: Path, rejected: pl.DataFrame) -> pl.LazyFrame:
    """The typed table with `row`: its CSV line − 2, its index moved past the rejected rows before it."""
    before = (rejected["row"] - pl.int_range(rejected.height, eager=True)).cast(pl.Int64)  # typed rows before each rejected one
    frame = pl.scan_parquet(path).with_row_index("index")
    return frame.with_columns((pl.col("index").cast(pl.Int64) + pl.lit(before).search_sorted(pl.col("index").cast(pl.Int64), side="right"))
                              .alias("row")).drop("index")


def parsed(rejected: pl.DataFrame, columns: list[str]) -> pl.LazyFrame:
    """The rejected lines split into string fields, with `fields_ok`."""
    fields = pl.col("line").str.split_exact(",", len(columns) - 1).struct
    return rejected.lazy().select(
        "row", (pl.col("line").str.count_matches(",", literal=True) == len(columns) - 1).alias("fields_ok"),
        *(fields.field(f"field_{i}").alias(c) for i, c in enumerate(columns)))


def accepted_users(directory: Path) -> pl.LazyFrame:
    """As fasting_polars.accepted_users: typed rows are well-formed but for the offset's range; rejected rows
    are judged by fasting_polars.py's rules."""
    rejected = rejected_lines(directory, "users")
    typed = (typed_rows(directory / "users.parquet", rejected)
             .select("row", "user_id", "utc_offset_minutes", "protocol", pl.lit(True).alias("well_formed")))
    offset = pl.col("utc_offset_minutes").str.to_integer(strict=False)
    text = parsed(rejected, USER_COLUMNS).select(
        "row", "user_id", offset.alias("utc_offset_minutes"), "protocol",
        (pl.col("fields_ok") & (pl.col("user_id") != "") & pl.col("utc_offset_minutes").str.contains(INTEGER) & offset.is_not_null()
         & pl.col("protocol").is_in(list(PROTOCOL_LIMIT_S))).fill_null(False).alias("well_formed"))
    return (pl.concat([typed, text]).sort("row")
            .filter(pl.col("well_formed") & pl.col("utc_offset_minutes").is_between(-720, 840))
            .filter(pl.col("row") == pl.col("row").min().over("user_id"))
            .select("user_id", pl.int_range(pl.len(), dtype=pl.UInt32).alias("uidx"),
                    (pl.col("utc_offset_minutes") * 60).alias("offset_s"),
                    pl.col("protocol").replace_strict(PROTOCOL_LIMIT_S, return_dtype=pl.Int64).alias("limit_s")))


def checked_meals(directory: Path, users: pl.LazyFrame) -> pl.LazyFrame:
    """Every meal row with `user_id`, `uidx`, `start`, `end` (seconds) and `reason` (null: accepted)."""
    rejected = rejected_lines(directory, "meals")
    typed = (typed_rows(directory / "meals.parquet", rejected)
             .select("row", "user_id", "meal_id", pl.col("start").dt.epoch("s"), pl.col("end").dt.epoch("s"),
                     pl.any_horizontal(pl.col(c) < 0 for c in DECIMALS).alias("negative"), pl.lit(True).alias("well_formed")))
    text = parsed(rejected, MEAL_COLUMNS)
    start_i, end_i = pl.col("start").str.to_integer(strict=False), pl.col("end").str.to_integer(strict=False)
    well_formed = (pl.col("fields_ok") & (pl.col("meal_id") != "") & (pl.col("user_id") != "")
                   & pl.col("start").str.contains(INTEGER) & start_i.is_not_null() & pl.col("end").str.contains(INTEGER) & end_i.is_not_null()
                   & pl.col("type").is_in(MEAL_TYPES) & pl.all_horizontal(pl.col(c).str.contains(DECIMAL) for c in DECIMALS)).fill_null(False)
    text = text.select("row", "user_id", "meal_id", start_i.alias("start"), end_i.alias("end"),
                       pl.any_horizontal(is_negative(c) for c in DECIMALS).alias("negative"), well_formed.alias("well_formed"))
    start, end = pl.col("start"), pl.col("end")
    too_long = (start <= INT64_MAX - MAX_MEAL_S) & (end > start + MAX_MEAL_S)
    reason = (pl.when(~pl.col("well_formed")).then(pl.lit("malformed"))
              .when(pl.col("uidx").is_null()).then(pl.lit("unknown_user"))
              .when(end < start).then(pl.lit("end_before_start"))
              .when(too_long).then(pl.lit("too_long"))
              .when(pl.col("negative")).then(pl.lit("negative_value")))
    first_passing = pl.when(pl.col("reason").is_null()).then(pl.col("row")).min().over("meal_id")
    return (pl.concat([typed, text])
            .join(users.select("user_id", "uidx"), on="user_id", how="left")
            .with_columns(reason.alias("reason"))
            .with_columns(pl.when(pl.col("reason").is_null() & (pl.col("row") != first_passing))
                          .then(pl.lit("duplicate")).otherwise("reason").alias("reason"))
            .select("user_id", "uidx", "start", "end", "reason"))


def summarize(directory: Path, min_fast: int) -> tuple[pl.DataFrame, dict[str, int]]:
    """As fasting_polars.summarize, from the Parquet tables."""
    users = accepted_users(directory).collect(engine=ENGINE)
    return summarize_checked(users, checked_meals(directory, users.lazy()), min_fast)


def main(argv: list[str] | None = None) -> int:
    return run_cli(argv, __doc__.split("\n\n")[0], "dataset directory (users.parquet, meals.parquet, rejected_rows.parquet)",
                   summarize)

if __name__ == "__main__":
    sys.exit(main())
