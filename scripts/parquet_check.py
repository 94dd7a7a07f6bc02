#!/usr/bin/env python3
"""Checks a Parquet dataset of `simharness generate --format parquet` with the real readers.

    parquet_check.py --csv DIR --parquet DIR              an unsharded dataset and the CSV of the same seed
    parquet_check.py --csv DIR0 DIR1 ... --parquet DIR    a Hive dataset of n shards and the n CSV shards

pyarrow, polars and DuckDB each read every table; every value, rendered back to CSV text, is compared
with the CSV file (typed rows and rejected_rows together must give exactly the CSV lines); the schema
(physical and logical types, nullability, dictionary encoding), the row counts of the manifest(s) and
the statistics (min, max, null count of every column chunk) are checked, and a sharded dataset must
read as one table with a `shard` column. Exit status 1 and a message on the first difference.
"""
import argparse
import json
import os
import sys

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

# name -> [(column, kind)]; kinds: id, text, dict (dictionary text), enum, script, optional, int, time, decimal,
# dictdecimal (a dictionary-encoded decimal)
TABLES = {
    "users": [("user_id", "id"), ("utc_offset_minutes", "int"), ("protocol", "enum"), ("sex", "dict"), ("age", "int"),
              ("weight_kg", "decimal"), ("height_cm", "decimal"), ("activity", "dict")],
    "meals": [("meal_id", "id"), ("user_id", "dictid"), ("start", "time"), ("end", "time"), ("type", "enum"),
              ("kcal", "decimal"), ("protein_g", "decimal"), ("carbs_g", "decimal"), ("fat_g", "decimal")],
    "steps": [("sample_id", "id"), ("user_id", "dictid"), ("source", "enum"), ("start", "time"), ("end", "time"), ("count", "dictdecimal")],
    "payments": [("payment_id", "id"), ("idempotency_key", "text"), ("user_id", "dictid"), ("kind", "enum"), ("amount_minor", "int"),
                 ("currency", "dict"), ("created_at", "time"), ("refund_of", "optional"), ("gateway", "script")],
}
REJECTED = [("table", "dict"), ("line", "int"), ("raw", "text")]
DICTIONARY = {"dict", "dictid", "enum", "script", "dictdecimal"}


class Mismatch(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Mismatch(message)


def milli_text(value):
    """The text the generator writes for a decimal: thousandths, trailing zeros dropped."""
    milli = round(value * 1000)
    expect(milli / 1000 == value, f"{value!r} is not a whole number of thousandths")
    sign = "-" if milli < 0 else ""
    whole, fraction = divmod(abs(milli), 1000)
    return sign + str(whole) + ("." + f"{fraction:03d}".rstrip("0") if fraction else "")


def render(kind, value):
    if value is None:
        return ""
    if kind == "int":
        return str(value)
    if kind == "time":  # microseconds
        expect(value % 1_000_000 == 0, f"time {value} has a fraction of a second")
        return str(value // 1_000_000)
    if kind in ("decimal", "dictdecimal"):
        return milli_text(value)
    return value


def rows_from_columns(columns, kinds):
    """Rows of CSV fields from columns of Python values (times as microseconds)."""
    rendered = [[render(kind, v) for v in column] for column, kind in zip(columns, kinds)]
    return [",".join(fields) for fields in zip(*rendered)] if rendered else []


def read_all(paths, columns, hive):
    """The table read by each of pyarrow, polars and DuckDB: {reader: {column: [values]}}, times as
    microseconds; with `hive`, also the `shard` column."""
    names = [c for c, _ in columns]
    times = {c for c, k in columns if k == "time"}
    result = {}
    if hive:
        root = os.path.dirname(os.path.dirname(paths[0]))
        table = pq.read_table(root, partitioning="hive")
    else:
        table = pq.read_table(paths[0])
    arrow = {c: (table.column(c).cast(pa.int64()) if c in times else table.column(c)).to_pylist() for c in names + (["shard"] if hive else [])}
    result["pyarrow"] = arrow
    source = os.path.dirname(os.path.dirname(paths[0])) + "/**/*.parquet" if hive else paths[0]
    frame = pl.scan_parquet(source, hive_partitioning=hive).with_columns([pl.col(c).dt.epoch("us") for c in times]).collect()
    result["polars"] = {c: frame[c].to_list() for c in frame.columns}
    pattern = os.path.dirname(os.path.dirname(paths[0])) + "/*/*.parquet" if hive else paths[0]
    selected = ", ".join(f'epoch_us("{c}") AS "{c}"' if c in times else f'"{c}"' for c in names) + (", shard" if hive else "")
    rows = duckdb.sql(f"SELECT {selected} FROM read_parquet('{pattern}', hive_partitioning = {str(hive).lower()})").fetchall()
    result["duckdb"] = {c: [r[i] for r in rows] for i, c in enumerate(names + (["shard"] if hive else []))}
    return result


def check_schema(path, columns):
    schema = pq.ParquetFile(path).schema
    expect([schema.column(i).name for i in range(len(schema))] == [c for c, _ in columns], f"{path}: columns {schema.names}")
    metadata = pq.ParquetFile(path).metadata
    for i, (name, kind) in enumerate(columns):
        column = schema.column(i)
        physical = {"int": "INT64", "time": "INT64", "decimal": "DOUBLE", "dictdecimal": "DOUBLE"}.get(kind, "BYTE_ARRAY")
        expect(column.physical_type == physical, f"{path}: {name} is {column.physical_type}, expected {physical}")
        logical = str(column.logical_type)
        if kind == "time":
            expect("Timestamp(isAdjustedToUTC=true, timeUnit=microseconds" in logical, f"{path}: {name} logical type {logical}")
        elif physical == "BYTE_ARRAY":
            expect(logical == "String", f"{path}: {name} logical type {logical}, expected String")
        expect(column.max_definition_level == (1 if kind == "optional" else 0), f"{path}: {name} nullability")
        for g in range(metadata.num_row_groups):
            encodings = metadata.row_group(g).column(i).encodings
            expect(("RLE_DICTIONARY" in encodings) == (kind in DICTIONARY), f"{path}: {name} encodings {encodings}")


def check_statistics(path, columns):
    file = pq.ParquetFile(path)
    times = {c for c, k in columns if k == "time"}
    for g in range(file.metadata.num_row_groups):
        group = file.read_row_group(g)
        for i, (name, kind) in enumerate(columns):
            stats = file.metadata.row_group(g).column(i).statistics
            expect(stats is not None and stats.has_null_count, f"{path}: row group {g}, {name}: no statistics")
            values = group.column(name)
            if name in times:
                values = values.cast(pa.int64())
            values = values.to_pylist()
            present = [v for v in values if v is not None]
            expect(stats.null_count == len(values) - len(present), f"{path}: row group {g}, {name}: null_count {stats.null_count}")
            if not present:
                continue
            expect(stats.has_min_max, f"{path}: row group {g}, {name}: no min/max")
            low, high = stats.min, stats.max
            if name in times:
                low, high = [int(pa.scalar(v, pa.timestamp("us", tz="UTC")).cast(pa.int64()).as_py()) for v in (low, high)]
            if kind not in ("int", "time", "decimal", "dictdecimal"):
                present = [v.encode() for v in present]
                low, high = [v.encode() if isinstance(v, str) else v for v in (low, high)]
            expect((low, high) == (min(present), max(present)),
                   f"{path}: row group {g}, {name}: statistics ({low!r}, {high!r}) but the data's ({min(present)!r}, {max(present)!r})")


def csv_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[1:-1]


def merged(typed_rows, rejected):
    """The CSV lines from typed rows in order and rejected (line, raw) pairs at their lines."""
    total = len(typed_rows) + len(rejected)
    lines = [None] * total
    for line, raw in rejected:
        expect(2 <= line < total + 2 and lines[line - 2] is None, f"rejected row at line {line} out of place")
        lines[line - 2] = raw
    typed = iter(typed_rows)
    return [line if line is not None else next(typed) for line in lines]


def check(csv_dirs, parquet_dir):
    hive = len(csv_dirs) > 1
    shards = range(len(csv_dirs))
    manifests = [json.load(open(os.path.join(parquet_dir, f"manifest-shard-{k}.json" if hive else "manifest.json"))) for k in shards]
    for table, columns in list(TABLES.items()):
        kinds = [k for _, k in columns]
        paths = [os.path.join(parquet_dir, f"{table}/shard={k}/part-0.parquet" if hive else f"{table}.parquet") for k in shards]
        rejected_paths = [os.path.join(parquet_dir, f"rejected_rows/shard={k}/part-0.parquet" if hive else "rejected_rows.parquet") for k in shards]
        for path in paths:
            check_schema(path, columns)
            check_statistics(path, columns)
        for path in rejected_paths:
            check_schema(path, REJECTED)
            check_statistics(path, REJECTED)
        tables = read_all(paths, columns, hive)
        rejected_tables = read_all(rejected_paths, REJECTED, hive)
        for reader, data in tables.items():
            rejected = rejected_tables[reader]
            for k in shards:
                mine = [i for i in range(len(data[columns[0][0]])) if not hive or int(data["shard"][i]) == k]
                typed_rows = rows_from_columns([[data[c][i] for i in mine] for c, _ in columns], kinds)
                pairs = [(rejected["line"][i], rejected["raw"][i]) for i in range(len(rejected["line"]))
                         if rejected["table"][i] == table and (not hive or int(rejected["shard"][i]) == k)]
                expected = csv_lines(os.path.join(csv_dirs[k], f"{table}.csv"))
                actual = merged(typed_rows, pairs)
                for n, (a, e) in enumerate(zip(actual, expected)):
                    expect(a == e, f"{reader}: {table} shard {k} line {n + 2}: {a!r} but the CSV has {e!r}")
                expect(len(actual) == len(expected), f"{reader}: {table} shard {k}: {len(actual)} rows, the CSV {len(expected)}")
                entry = manifests[k]["files"][table]
                expect((entry["typed_rows"], entry["rejected_rows"], entry["rows"]) == (len(typed_rows), len(pairs), len(expected)),
                       f"{reader}: {table} shard {k}: manifest says {entry}, read {len(typed_rows)} typed + {len(pairs)} rejected")
            if hive:
                expect(sorted(set(int(s) for s in data["shard"])) == list(shards), f"{reader}: {table}: shards {set(data['shard'])}")
    print(f"parquet-check: {parquet_dir}: {len(TABLES)} tables + rejected_rows, {'%d shards' % len(csv_dirs) if hive else 'unsharded'}: "
          "pyarrow, polars and DuckDB read every value as the CSV has it; schema, statistics and counts hold")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", nargs="+", required=True)
    parser.add_argument("--parquet", required=True)
    args = parser.parse_args()
    try:
        check(args.csv, args.parquet)
    except Mismatch as error:
        print(f"parquet-check: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
