#!/usr/bin/env python3
"""Reference implementation of SPEC §2's `fasting_summary.csv` in vectorized polars.

    python3 fasting_polars.py --input DIR --out FILE [--min-fast 10800]

Reads `users.csv` and `meals.csv` (or `.csv.gz`) from DIR and writes the summary to FILE. Every
step is a polars expression over whole columns; no Python code runs per row. This is the
baseline that `simharness analyze` is timed against (see README.md), and its output must be
byte-identical to the `fasting_summary.csv` that `analyze` writes.

Choices where SPEC is silent (`analyze` must make the same ones for the outputs to agree on such
input; the generated datasets exercise none of them):
- every column of the SPEC header of a file is required;
- a row whose field count differs from the header's is `malformed`, and still counts in
  the `rejected` column of the user its `user_id` field names, when it has that field;
- a repeated `user_id` is `duplicate` of the first *accepted* row, as for meals;
- when `users` or `meals` is missing, the summary is written with its header only.
NDJSON input is not supported by this reference (exit 1); a refused input exits 2.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import polars as pl

USER_COLUMNS = ["user_id", "utc_offset_minutes", "protocol", "sex", "age", "weight_kg", "height_cm", "activity"]
MEAL_COLUMNS = ["meal_id", "user_id", "start", "end", "type", "kcal", "protein_g", "carbs_g", "fat_g"]
SUMMARY_COLUMNS = ["user_id", "meals", "rejected", "episodes", "fasts", "total_fast_s", "longest_fast_s",
                   "evaluated_days", "compliant_days"]
PROTOCOL_LIMIT_S = {"16:8": 8 * 3600, "18:6": 6 * 3600, "20:4": 4 * 3600, "omad": 3600, "none": None}
MEAL_TYPES = ["breakfast", "lunch", "dinner", "snack"]
MEAL_REASONS = ["malformed", "unknown_user", "end_before_start", "too_long", "negative_value", "duplicate"]
INTEGER = r"^-?[0-9]+$"
DECIMAL = r"^-?[0-9]+(\.[0-9]+)?$"
MAX_MEAL_S = 14_400
INT64_MAX = 2**63 - 1
DAY_S = 86_400
#: Polars 2 defaults to its streaming engine, which runs the order-dependent steps here (shift,
#: cum_max over users) about 2x slower than the in-memory engine on this workload.
ENGINE = "in-memory"


class Refused(Exception):
    """The input is refused as a whole (SPEC §5, exit status 2)."""


def find_table(directory: Path, base: str) -> Path | None:
    """The CSV file of `base` in `directory`, or None when there is none."""
    present = [p for p in (directory / f"{base}{ext}" for ext in (".csv", ".csv.gz", ".ndjson", ".ndjson.gz"))
               if p.exists()]
    if len(present) > 1:
        raise Refused(f"{present[0]}: base name '{base}' present in two formats: {', '.join(p.name for p in present)}")
    if present and present[0].name.endswith((".ndjson", ".ndjson.gz")):
        raise NotImplementedError(f"{present[0]}: NDJSON is not supported by this reference implementation")
    return present[0] if present else None


def read_table(path: Path, required: list[str]) -> pl.LazyFrame:
    """The data rows of a SPEC CSV file: `row` (input order), `fields_ok` and the required columns as strings.

    Accepts a UTF-8 BOM, CRLF line ends and blank lines; refuses a file without a header or with a
    required column missing.
    """
    source: Path | bytes = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path
    lines = (pl.scan_lines(source, name="line").with_row_index("row")
             .with_columns(pl.when(pl.col("row") == 0).then(pl.col("line").str.strip_prefix("\ufeff"))
                           .otherwise("line").str.strip_suffix("\r"))
             .filter(pl.col("line") != ""))
    first = lines.head(1).collect()
    if first.height == 0:
        raise Refused(f"{path}: line 1: no header row")
    header_row, header = first.item(0, "row"), first.item(0, "line").split(",")
    missing = [c for c in required if c not in header]
    if missing:
        raise Refused(f"{path}: line {header_row + 1}: missing required column(s) {', '.join(missing)}")
    fields = pl.col("line").str.split_exact(",", len(header) - 1).struct
    return lines.filter(pl.col("row") > header_row).select(
        "row",
        (pl.col("line").str.count_matches(",", literal=True) == len(header) - 1).alias("fields_ok"),
        *(fields.field(f"field_{header.index(c)}").alias(c) for c in required),
    )


def is_integer(column: str) -> pl.Expr:
    """`-?[0-9]+` within the signed 64-bit range."""
    return pl.col(column).str.contains(INTEGER) & pl.col(column).str.to_integer(strict=False).is_not_null()


def is_decimal(column: str) -> pl.Expr:
    return pl.col(column).str.contains(DECIMAL)


def is_negative(column: str) -> pl.Expr:
    """Exactly `< 0` for a well-formed decimal: a minus sign and a non-zero digit (so `-0.0` is not)."""
    return pl.col(column).str.contains("^-.*[1-9]")


def accepted_users(path: Path) -> pl.LazyFrame:
    """The accepted rows of users.csv: `user_id`, `uidx` (acceptance order), `offset_s`, `limit_s` (null: `none`)."""
    users = read_table(path, USER_COLUMNS)
    offset = pl.col("utc_offset_minutes").str.to_integer(strict=False)
    well_formed = (pl.col("fields_ok") & (pl.col("user_id") != "") & is_integer("utc_offset_minutes")
                   & offset.is_between(-720, 840) & pl.col("protocol").is_in(list(PROTOCOL_LIMIT_S))).fill_null(False)
    return (users.filter(well_formed)
            .filter(pl.col("row") == pl.col("row").min().over("user_id"))
            .select(
                "user_id",
                pl.int_range(pl.len(), dtype=pl.UInt32).alias("uidx"),
                (offset * 60).alias("offset_s"),
                pl.col("protocol").replace_strict(PROTOCOL_LIMIT_S, return_dtype=pl.Int64).alias("limit_s"),
            ))


def checked_meals(path: Path, users: pl.LazyFrame) -> pl.LazyFrame:
    """Every meal row with `user_id`, `uidx` (null: unknown), `start`, `end` (ints) and `reason` (null: accepted)."""
    decimals = ["kcal", "protein_g", "carbs_g", "fat_g"]
    start, end = pl.col("start_i"), pl.col("end_i")
    well_formed = (pl.col("fields_ok") & (pl.col("meal_id") != "") & (pl.col("user_id") != "")
                   & pl.col("start").str.contains(INTEGER) & start.is_not_null()
                   & pl.col("end").str.contains(INTEGER) & end.is_not_null()
                   & pl.col("type").is_in(MEAL_TYPES) & pl.all_horizontal(is_decimal(c) for c in decimals)
                   ).fill_null(False)
    too_long = (start <= INT64_MAX - MAX_MEAL_S) & (end > start + MAX_MEAL_S)  # end - start > 14400, no overflow
    reason = (pl.when(~well_formed).then(pl.lit("malformed"))
              .when(pl.col("uidx").is_null()).then(pl.lit("unknown_user"))
              .when(end < start).then(pl.lit("end_before_start"))
              .when(too_long).then(pl.lit("too_long"))
              .when(pl.any_horizontal(is_negative(c) for c in decimals)).then(pl.lit("negative_value")))
    # A meal_id is a duplicate when an earlier row (in input order) with that id passed every check.
    first_passing = pl.when(pl.col("reason").is_null()).then(pl.col("row")).min().over("meal_id")
    return (read_table(path, MEAL_COLUMNS)
            .with_columns(pl.col("start").str.to_integer(strict=False).alias("start_i"),
                          pl.col("end").str.to_integer(strict=False).alias("end_i"))
            .join(users.select("user_id", "uidx"), on="user_id", how="left")
            .with_columns(reason.alias("reason"))
            .with_columns(pl.when(pl.col("reason").is_null() & (pl.col("row") != first_passing))
                          .then(pl.lit("duplicate")).otherwise("reason").alias("reason"))
            .select("user_id", "uidx", start.alias("start"), end.alias("end"), "reason"))


def fasting_per_user(accepted: pl.LazyFrame, users: pl.DataFrame, min_fast: int) -> pl.LazyFrame:
    """Per `uidx` (users' row index): meals, episodes, fasts, total_fast_s, longest_fast_s, evaluated_days,
    compliant_days, from the accepted meals' `uidx`, `start`, `end`."""
    # Step 1: sort by (uidx, start) as two stable single-key sorts (much faster than one two-key
    # sort). The SPEC's further keys (end, meal_id) cannot change any count: among meals with one
    # start, the first opens or joins an episode as any of them would, and the others join it.
    # Step 2: a meal opens an episode unless its start is <= the running max end of its user.
    first_of_user = (pl.col("uidx") != pl.col("uidx").shift(1)).fill_null(True)
    meals = (accepted.sort("start").sort("uidx", maintain_order=True)
             .with_columns(pl.col("end").cum_max().over("uidx").alias("reach"), first_of_user.alias("first_of_user"))
             .with_columns((pl.col("first_of_user") | (pl.col("start") > pl.col("reach").shift(1))).alias("opens")))
    # An episode runs from its first meal's start to the running max end at its last meal.
    episodes = pl.concat([
        meals.filter("opens").select("uidx", pl.col("start").alias("ep_start"), "first_of_user"),
        meals.filter(pl.col("opens").shift(-1).fill_null(True)).select(pl.col("reach").alias("ep_end")),
    ], how="horizontal")
    # Step 3: the gap before each of a user's episodes but the first is a fast when it is >= min_fast.
    # Step 4: an episode's local day is that of its start; days are contiguous runs of episodes.
    gap = pl.col("ep_start") - pl.col("ep_end").shift(1)
    day = (pl.col("ep_start") + pl.lit(users["offset_s"]).gather("uidx")) // DAY_S
    episodes = episodes.with_columns(
        pl.when(~pl.col("first_of_user") & (gap >= min_fast)).then(gap).alias("fast_s"),
        (pl.col("first_of_user") | (day != day.shift(1))).alias("opens_day"))
    days = pl.concat([
        episodes.filter("opens_day").select("uidx", pl.col("ep_start").alias("day_start")),
        episodes.filter(pl.col("opens_day").shift(-1).fill_null(True)).select(pl.col("ep_end").alias("day_end")),
    ], how="horizontal").with_columns(pl.lit(users["limit_s"]).gather("uidx").alias("limit_s"))
    per_day = days.group_by("uidx").agg(
        pl.col("limit_s").is_not_null().sum().alias("evaluated_days"),
        (pl.col("day_end") - pl.col("day_start") <= pl.col("limit_s")).sum().alias("compliant_days"))
    per_episode = episodes.group_by("uidx").agg(
        pl.len().alias("episodes"), pl.col("fast_s").count().alias("fasts"),
        pl.col("fast_s").sum().alias("total_fast_s"), pl.col("fast_s").max().fill_null(0).alias("longest_fast_s"))
    per_meal = meals.group_by("uidx").agg(pl.len().alias("meals"))
    return per_meal.join(per_episode, on="uidx").join(per_day, on="uidx")


def summarize(directory: Path, min_fast: int) -> tuple[pl.DataFrame, dict[str, int]]:
    """The `fasting_summary.csv` frame and the meals file's rejection counts by reason."""
    users_path, meals_path = find_table(directory, "users"), find_table(directory, "meals")
    if users_path is None or meals_path is None:
        return pl.DataFrame(schema={c: pl.String if c == "user_id" else pl.Int64 for c in SUMMARY_COLUMNS}), {}
    users = accepted_users(users_path).collect(engine=ENGINE)
    return summarize_checked(users, checked_meals(meals_path, users.lazy()), min_fast)


def summarize_checked(users: pl.DataFrame, checked_frame: pl.LazyFrame, min_fast: int) -> tuple[pl.DataFrame, dict[str, int]]:
    """The summary frame and the counts by reason from the accepted users and every meal row checked
    (`user_id`, `uidx`, `start`, `end`, `reason`: null when accepted)."""
    checked = checked_frame.collect(engine=ENGINE).lazy()
    accepted = checked.filter(pl.col("reason").is_null()).select("uidx", "start", "end")
    rejected = (checked.filter(pl.col("reason").is_not_null()).group_by("user_id")
                .agg(pl.len().alias("rejected")))
    per_user = fasting_per_user(accepted, users, min_fast)
    summary = (users.lazy().select("user_id", "uidx")
               .join(per_user, on="uidx", how="left")
               .join(rejected, on="user_id", how="left")
               .select(pl.col("user_id"), *(pl.col(c).fill_null(0).cast(pl.Int64) for c in SUMMARY_COLUMNS[1:]))
               .sort("user_id"))
    reasons = checked.group_by("reason").agg(pl.len())
    summary_frame, reason_frame = pl.collect_all([summary, reasons], engine=ENGINE)
    counts = dict(zip(reason_frame["reason"].fill_null("accepted"), reason_frame["len"]))
    return summary_frame, counts


def run_cli(argv: list[str] | None, description: str, input_help: str,
            summarize_directory=summarize) -> int:
    """The command line of both peers: --input, --out, --min-fast; the summary written, the counts on stderr."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--input", type=Path, required=True, help=input_help)
    parser.add_argument("--out", type=Path, required=True, help="fasting_summary.csv file to write")
    parser.add_argument("--min-fast", type=int, default=10_800, help="shortest counted fast in seconds")
    args = parser.parse_args(argv)
    try:
        summary, counts = summarize_directory(args.input, args.min_fast)
    except Refused as refusal:
        print(f"refused: {refusal}", file=sys.stderr)
        return 2
    except NotImplementedError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    summary.write_csv(args.out, quote_style="never")
    read = sum(counts.values())
    shown = ", ".join(f"{r} {counts[r]:,}" for r in MEAL_REASONS if r in counts)
    print(f"meals: read {read:,}, accepted {counts.get('accepted', 0):,}, rejected: {shown or 'none'}; "
          f"{summary.height:,} users", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_cli(argv, __doc__.split("\n\n")[0], "dataset directory (users.csv, meals.csv)")

if __name__ == "__main__":
    sys.exit(main())
