#!/usr/bin/env python3
"""Writes the pyarrow-made Parquet files that Tests/ParquetTests reads (ReaderInteropTests).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pyarrow
    /tmp/venv/bin/python scripts/parquet-fixtures.py Tests/ParquetTests/Fixtures

Every file holds the same 40 rows (the formulas below, mirrored in ReaderInteropTests.expected):
i (int64, nullable, with Int64.min/max), ts (timestamp[us, UTC]), local (timestamp[us], no zone),
d (double, nullable, NaN and -0.0), s (string, nullable, empty strings, low cardinality), r (int64, required).
Pages are kept small (data_page_size 64 bytes, batches of 8 rows) so that every column chunk has several pages.
The delta files hold the same rows with DELTA_BINARY_PACKED integers and DELTA_BYTE_ARRAY (or
DELTA_LENGTH_BYTE_ARRAY) strings; pyarrow-delta-long.parquet holds 1,000 rows in pages of several blocks
(the formulas of `long_columns`, mirrored in ReaderInteropTests.long).
"""
import math
import pathlib
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 40


def columns():
    i = [-(2**63) if n == 0 else 2**63 - 1 if n == 1 else None if n % 5 == 3 else (n * n - 200) * 1_000_000_007 for n in range(ROWS)]
    ts = [1_700_000_000_000_000 + n * 1_000_001 for n in range(ROWS)]
    d = [None if n % 7 == 2 else math.nan if n % 9 == 4 else -0.0 if n == 6 else n * 0.25 - 3 for n in range(ROWS)]
    s = [None if n % 6 == 5 else "" if n % 4 == 0 else f"s{n % 3}-é" for n in range(ROWS)]
    r = [n * 3 for n in range(ROWS)]
    schema = pa.schema([
        pa.field("i", pa.int64()),
        pa.field("ts", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("local", pa.timestamp("us"), nullable=False),
        pa.field("d", pa.float64()),
        pa.field("s", pa.string()),
        pa.field("r", pa.int64(), nullable=False),
    ])
    return pa.table([i, ts, ts, d, s, r], schema=schema)


def long_columns():
    rows = 1000
    n = [(k * k * 7919) % 1_000_003 - 500_000 for k in range(rows)]
    n[10], n[11], n[500] = -(2**63), 2**63 - 1, -(2**63)
    s = [f"user-{k // 10:05d}-{k % 7}" + ("x" * (k % 23)) for k in range(rows)]
    schema = pa.schema([pa.field("n", pa.int64(), nullable=False), pa.field("s", pa.string(), nullable=False)])
    return pa.table([n, s], schema=schema)


DELTA = {"i": "DELTA_BINARY_PACKED", "ts": "DELTA_BINARY_PACKED", "local": "DELTA_BINARY_PACKED", "r": "DELTA_BINARY_PACKED"}
DELTA_FILES = {
    # name: (string encoding, data_page_version)
    "pyarrow-v1-delta.parquet": ("DELTA_BYTE_ARRAY", "1.0"),
    "pyarrow-v2-delta-length.parquet": ("DELTA_LENGTH_BYTE_ARRAY", "2.0"),
}

FILES = {
    # name: (compression, use_dictionary, data_page_version)
    "pyarrow-v1-none-plain.parquet": ("none", False, "1.0"),
    "pyarrow-v1-gzip-dictionary.parquet": ("gzip", True, "1.0"),
    "pyarrow-v2-zstd-dictionary.parquet": ("zstd", True, "2.0"),
    "pyarrow-v2-zstd-plain.parquet": ("zstd", False, "2.0"),
    "pyarrow-v2-none-dictionary.parquet": ("none", True, "2.0"),
    "pyarrow-snappy.parquet": ("snappy", False, "1.0"),
}


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/ParquetTests/Fixtures")
    out.mkdir(parents=True, exist_ok=True)
    table = columns()
    for name, (compression, dictionary, version) in FILES.items():
        pq.write_table(table, out / name, compression=compression, use_dictionary=dictionary,
                       data_page_version=version, data_page_size=64, write_batch_size=8,
                       write_statistics=True)
        print(name, (out / name).stat().st_size, "bytes")
    for name, (strings, version) in DELTA_FILES.items():
        pq.write_table(table, out / name, compression="zstd", use_dictionary=False, column_encoding={**DELTA, "s": strings},
                       data_page_version=version, data_page_size=64, write_batch_size=8, write_statistics=True)
        print(name, (out / name).stat().st_size, "bytes")
    pq.write_table(long_columns(), out / "pyarrow-delta-long.parquet", compression="none", use_dictionary=False,
                   column_encoding={"n": "DELTA_BINARY_PACKED", "s": "DELTA_BYTE_ARRAY"}, data_page_size=4096)
    print("pyarrow-delta-long.parquet", (out / "pyarrow-delta-long.parquet").stat().st_size, "bytes")


if __name__ == "__main__":
    main()
