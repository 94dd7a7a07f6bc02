"""Tests of the numpy generator `make_dataset.py`, and a cross-check of the polars reference
against the row-by-row oracle on the generated data."""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import fasting_polars  # noqa: E402
import make_dataset  # noqa: E402
import spec_oracle  # noqa: E402

ARGS = ["--users", "3000", "--meals-per-user", "20", "--seed", "7"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dataset")
    assert make_dataset.main([*ARGS, "--out", str(out), "--steps", "--payments"]) == 0
    return out


def test_files_have_the_spec_headers(dataset: Path) -> None:
    # Given a generated dataset / When its headers are read
    sut = {name: (dataset / f"{name}.csv").open().readline().rstrip("\n")
           for name in ("users", "meals", "steps", "payments")}
    # Then they are the SPEC headers
    assert sut == {
        "users": "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity",
        "meals": "meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g",
        "steps": "sample_id,user_id,source,start,end,count",
        "payments": "payment_id,idempotency_key,user_id,kind,amount_minor,currency,created_at,refund_of,gateway",
    }


def test_users_are_zero_padded_and_cover_the_odd_offsets(dataset: Path) -> None:
    # Given the generated users
    sut = pl.read_csv(dataset / "users.csv", infer_schema=False)
    # Then ids are u + 7 digits in order, offsets include the half/quarter-hour zones and the limits
    assert sut["user_id"].to_list()[:3] == ["u0000000", "u0000001", "u0000002"]
    assert sut["user_id"].str.contains(r"^u[0-9]{7}$").all()
    assert {"-210", "330", "345", "840", "-720"} <= set(sut["utc_offset_minutes"])
    assert set(sut["protocol"]) == {"16:8", "18:6", "20:4", "omad", "none"}
    assert set(sut["sex"]) == {"male", "female"}
    assert sut["weight_kg"].str.contains(r"^[0-9]+\.[0-9]$").all()


def test_meals_hold_every_kind_of_bad_row(dataset: Path) -> None:
    # Given the generated meals / When the oracle classifies them
    _, sut = spec_oracle.summary(dataset)
    # Then every rejection reason but malformed occurs, in a small share
    total = sum(sut.values())
    assert set(sut) == {"accepted", "unknown_user", "end_before_start", "too_long", "negative_value", "duplicate"}
    assert sut["accepted"] > 0.98 * total
    assert 50_000 < total < 70_000


def test_meal_ids_are_zero_padded_and_the_file_is_in_time_order(dataset: Path) -> None:
    # Given the generated meals without their redelivered copies
    sut = pl.read_csv(dataset / "meals.csv", infer_schema=False).unique("meal_id", keep="first", maintain_order=True)
    # Then ids count up from m00000001 and starts never decrease
    assert sut["meal_id"][0] == "m00000001"
    assert (sut["meal_id"].str.slice(1).cast(pl.Int64).diff().drop_nulls() == 1).all()
    assert (sut["start"].cast(pl.Int64).diff().drop_nulls() >= 0).all()


def test_same_seed_gives_identical_files(dataset: Path, tmp_path: Path) -> None:
    # Given a second run with the same seed
    assert make_dataset.main([*ARGS, "--out", str(tmp_path), "--steps", "--payments"]) == 0
    # Then every file is byte-identical
    for name in ("users", "meals", "steps", "payments"):
        assert (tmp_path / f"{name}.csv").read_bytes() == (dataset / f"{name}.csv").read_bytes(), name


def test_payments_use_valid_scripts_and_refunds_name_charges(dataset: Path) -> None:
    # Given the generated payments
    sut = pl.read_csv(dataset / "payments.csv", infer_schema=False)
    # Then scripts are valid, ids are unique, and each refund names an earlier payment id
    assert sut["gateway"].str.contains(r"^[ADTL](;[ADTL])*$").all()
    assert sut["payment_id"].n_unique() == sut.height
    refunds = sut.filter(pl.col("kind") == "refund")
    assert refunds.height > 0
    assert refunds["refund_of"].is_in(sut["payment_id"].implode()).all()
    assert (refunds["refund_of"] < refunds["payment_id"]).all()
    assert sut.filter(pl.col("kind") == "charge")["refund_of"].is_null().all()


def test_polars_reference_agrees_with_the_oracle(dataset: Path, tmp_path: Path) -> None:
    # Given the generated dataset and the oracle's summary of it
    expected, _ = spec_oracle.summary(dataset)
    sut = tmp_path / "fasting_summary.csv"
    # When the polars reference summarizes it
    status = fasting_polars.main(["--input", str(dataset), "--out", str(sut)])
    # Then both summaries are identical
    assert status == 0
    assert sut.read_text() == expected
