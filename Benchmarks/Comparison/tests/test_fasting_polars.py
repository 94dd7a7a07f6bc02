"""Tests of the polars reference `fasting_polars.py` against a summary worked out by hand.

Times below are offsets from T0 = 1772409600 = 2026-03-02T00:00:00Z (a UTC midnight).
Run: python3 -m pytest Benchmarks/Comparison/tests
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fasting_polars  # noqa: E402

USERS = """\
user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity
u01,0,16:8,female,30,60.0,165.0,light
u02,-210,omad,male,40,80.0,180.0,moderate
u05,900,16:8,male,33,70.0,170.0,light
u03,0,none,female,25,55.0,160.0,active
u01,60,none,female,30,60.0,165.0,light
u06,0,5:2,male,61,75.0,172.0,sedentary
u04,330,18:6,male,50,90.0,175.0,sedentary
"""
# Accepted: u01, u02, u03, u04. u05 (offset > 840) and u06 (protocol 5:2) are malformed; the
# second u01 is a duplicate, and would make u01's days unevaluated (protocol none) if it counted.

MEALS = """\
meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g
m07,u01,1772553600,1772555400,dinner,700.0,30.0,80.0,25.0
m01,u01,1772438400,1772440200,breakfast,400.0,20.0,50.0,12.0
m02,u01,1772440200,1772441100,snack,150.0,3.0,20.0,6.0
m03,u01,1772451900,1772453700,lunch,600.0,30.0,70.0,20.0
m04,u01,1772464499,1772465400,snack,200.0,5.0,25.0,8.0
m04,u01,1772464499,1772465400,snack,200.0,5.0,25.0,8.0
m06,u01,1772521200,1772522400,breakfast,350.0,15.0,45.0,10.0
m08,u01,1772618400,1772614800,lunch,500.0,25.0,60.0,15.0
m09,u01,1772625600,1772640001,lunch,900.0,40.0,100.0,30.0
m10,u01,1772625600,1772640000,lunch,1500.0,60.0,150.0,60.0
m11,u01,1772647200,1772647800,snack,100.0,-0.1,15.0,3.0
m12,u01,1772629200,1772629200,snack,-0.0,0.0,0.0,0.0
m03,u02,1772841600,1772843400,lunch,600.0,30.0,70.0,20.0
n01,u02,1772416800,1772418600,dinner,800.0,40.0,90.0,30.0
n02,u02,1772422200,1772423400,snack,120.0,2.0,18.0,4.0
n03,u02,1772424000,1772425860,snack,90.0,1.0,12.0,4.0
n06,u02,1772600400,1772602200,snack,200.0,5.0,25.0,8.0
n05,u02,1772593200,1772596800,dinner,1100.0,50.0,120.0,40.0
k04,u03,1772481600,1772485200,dinner,750.0,35.0,85.0,28.0
k01,u03,1772442000,1772443800,breakfast,450.0,20.0,55.0,15.0
k03,u03,1772443800,1772443800,snack,0.0,0.0,0.0,0.0
k02,u03,1772442600,1772443200,snack,80.0,1.0,10.0,3.0
k05,u03,1772524800,1772526000,breakfast,-5,10.0,40.0,9.0
k05,u03,1772524800,1772526000,breakfast,300.0,10.0,40.0,9.0
k06,u03,+1772530000,1772531000,snack,100.0,2.0,15.0,3.0
k07,u03,1772532000,1772533000,brunch,100.0,2.0,15.0,3.0
k08,u03,1772534000,1772535000,snack,100.0,2.0,15.0
k09,u03,99999999999999999999,1772535000,snack,100.0,2.0,15.0,3.0
x01,u05,1772438400,1772440200,breakfast,400.0,20.0,50.0,12.0
x02,u99,1772438400,1772440200,breakfast,400.0,20.0,50.0,12.0
x03,u06,1772438400,1772440200,breakfast,400.0,20.0,50.0,12.0
"""

HEADER = ("user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,"
          "evaluated_days,compliant_days\n")

# u01 (UTC, 16:8 = 28800 s): episodes A [08:00, 08:45] (m01 and m02 touch at 08:30, so they
# merge), B [11:45, 12:15], C [15:14:59, 15:30] on day 1; D [07:00, 07:20], E [16:00, 16:30] on
# day 2; F [12:00, 16:00] on day 3 (m10 lasts exactly 14400 s; the zero-length m12 at 13:00 with
# kcal -0.0, not < 0, joins it). Fasts: B-A = 10800 (counts), C-B = 10799 (does not),
# D-C = 55800, E-D = 31200, F-E = 70200: 4 fasts, total 168000, longest 70200. Windows: day 1
# 27000 <= 28800, day 2 34200 > 28800, day 3 14400: 3 evaluated, 2 compliant. Rejected: the
# second m04 (duplicate), m08 (end before start), m09 (14401 s, too long), m11 (protein -0.1).
U01 = "u01,8,4,6,4,168000,70200,3,2\n"
# u02 (UTC-03:30, omad = 3600 s; local day = floor((t - 12600) / 86400)): n01 at local 22:30
# Mar 1; n02 at local 00:00 Mar 2 exactly, n03 10 min after n02 ends, window 00:00-01:01 =
# 3660 > 3600; n05 23:30-00:30 Mar 3 (window exactly 3600, compliant); n06 01:30 Mar 4. Only
# n03 -> n05 (167340 s) is >= 10800. Rejected: meal_id m03, already accepted for u01.
U02 = "u02,5,1,5,1,167340,167340,4,3\n"
# u03 (UTC, none: never evaluated): k01 [09:00, 09:30] holds k02 and the zero-length k03 at
# 09:30; k04 [20:00, 21:00]; the second k05 [day 2 08:00, 08:20] is accepted because the first
# k05 was rejected (kcal -5), not accepted. Fasts 37800 and 39600. Rejected: first k05,
# k06 (`+` sign), k07 (type brunch), k08 (8 fields), k09 (start beyond the 64-bit range).
U03 = "u03,5,5,3,2,77400,39600,0,0\n"
U04 = "u04,0,0,0,0,0,0,0,0\n"  # no meals


def write_dataset(directory: Path, users: str = USERS, meals: str = MEALS, suffix: str = ".csv") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"users{suffix}").write_bytes(users.encode())
    (directory / f"meals{suffix}").write_bytes(meals.encode())
    return directory


def run(dataset: Path, out: Path, *extra: str) -> int:
    return fasting_polars.main(["--input", str(dataset), "--out", str(out), *extra])


def test_summary_matches_the_hand_worked_rows(tmp_path: Path) -> None:
    # Given the hand-made dataset
    dataset = write_dataset(tmp_path / "in")
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then every row is the one worked out by hand, sorted by user_id
    assert status == 0
    assert sut.read_text() == HEADER + U01 + U02 + U03 + U04


def test_min_fast_is_inclusive(tmp_path: Path) -> None:
    # Given the hand-made dataset and a minimum fast of 10799 s
    dataset = write_dataset(tmp_path / "in")
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut, "--min-fast", "10799")
    # Then u01's gap of 10799 s now counts too: 5 fasts, total 168000 + 10799
    assert status == 0
    assert sut.read_text().splitlines()[1] == "u01,8,4,6,5,178799,70200,3,2"


def test_bom_crlf_and_blank_lines_do_not_change_the_summary(tmp_path: Path) -> None:
    # Given the same dataset with a BOM, CRLF line ends and blank lines
    def dress(text: str) -> str:
        return "\ufeff" + text.replace("\n", "\r\n\r\n")
    dataset = write_dataset(tmp_path / "in", dress(USERS), dress(MEALS))
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then the summary is the hand-worked one
    assert status == 0
    assert sut.read_text() == HEADER + U01 + U02 + U03 + U04


def test_gzip_input_gives_the_same_summary(tmp_path: Path) -> None:
    # Given the dataset gzip-compressed
    import gzip
    dataset = tmp_path / "in"
    dataset.mkdir()
    (dataset / "users.csv.gz").write_bytes(gzip.compress(USERS.encode()))
    (dataset / "meals.csv.gz").write_bytes(gzip.compress(MEALS.encode()))
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then the summary is the hand-worked one
    assert status == 0
    assert sut.read_text() == HEADER + U01 + U02 + U03 + U04


def test_columns_are_found_by_name_and_extra_columns_ignored(tmp_path: Path) -> None:
    # Given users whose columns are reordered, with an extra one
    users = "note,protocol,user_id,utc_offset_minutes,sex,age,weight_kg,height_cm,activity\n" \
            "x,none,u01,0,female,30,60.0,165.0,light\n"
    meals = MEALS.splitlines()[0] + "\nm01,u01,1772438400,1772440200,breakfast,400.0,20.0,50.0,12.0\n"
    dataset = write_dataset(tmp_path / "in", users, meals)
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then u01 is read with protocol none
    assert status == 0
    assert sut.read_text() == HEADER + "u01,1,0,1,0,0,0,0,0\n"


@pytest.mark.parametrize("table", ["users", "meals"])
def test_a_missing_required_column_refuses_the_run(tmp_path: Path, table: str) -> None:
    # Given a file without its `user_id` column
    text = {"users": USERS, "meals": MEALS}[table]
    stripped = "\n".join(",".join(f for i, f in enumerate(line.split(",")) if i != (1 if table == "meals" else 0))
                         for line in text.splitlines())
    dataset = write_dataset(tmp_path / "in", **{table: stripped})
    sut = tmp_path / "fasting_summary.csv"
    # When the reference reads it
    status = run(dataset, sut)
    # Then the run is refused with status 2 and no output is written
    assert status == 2
    assert not sut.exists()


def test_a_base_name_in_two_formats_refuses_the_run(tmp_path: Path) -> None:
    # Given meals both as CSV and as NDJSON
    dataset = write_dataset(tmp_path / "in")
    (dataset / "meals.ndjson").write_text("{}\n")
    sut = tmp_path / "fasting_summary.csv"
    # When the reference reads it
    status = run(dataset, sut)
    # Then the run is refused with status 2
    assert status == 2
    assert not sut.exists()


def test_missing_meals_gives_a_header_only_summary(tmp_path: Path) -> None:
    # Given users but no meals file
    dataset = tmp_path / "in"
    dataset.mkdir()
    (dataset / "users.csv").write_text(USERS)
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then the summary holds its header only
    assert status == 0
    assert sut.read_text() == HEADER


def test_the_oracle_agrees_with_the_hand_worked_rows(tmp_path: Path) -> None:
    # Given the hand-made dataset (the oracle cross-checks the reference on generated data)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import spec_oracle
    dataset = write_dataset(tmp_path / "in")
    # When the row-by-row oracle summarizes it
    sut, counts = spec_oracle.summary(dataset)
    # Then it agrees with the hand-worked rows and counts
    assert sut == HEADER + U01 + U02 + U03 + U04
    assert counts == {"accepted": 18, "malformed": 4, "unknown_user": 3, "end_before_start": 1,
                      "too_long": 1, "negative_value": 2, "duplicate": 2}


def test_meal_rows_are_counted_by_reason_in_spec_order(tmp_path: Path) -> None:
    # Given the hand-made dataset
    dataset = write_dataset(tmp_path / "in")
    # When the reference summarizes it
    _, sut = fasting_polars.summarize(dataset, 10_800)
    # Then each row has exactly its first failing reason (k05's negative kcal before its duplicate id)
    assert sut == {"accepted": 18, "malformed": 4, "unknown_user": 3, "end_before_start": 1,
                   "too_long": 1, "negative_value": 2, "duplicate": 2}


def test_users_are_sorted_by_utf8_bytes(tmp_path: Path) -> None:
    # Given users whose ids differ in case and in non-ASCII letters, and no meals
    users = USERS.splitlines()[0] + "\n" + "".join(f"{uid},0,none,male,30,70.0,170.0,light\n"
                                                    for uid in ("é", "b", "Z", "a", "ü", "B"))
    dataset = write_dataset(tmp_path / "in", users, MEALS.splitlines()[0] + "\n")
    sut = tmp_path / "fasting_summary.csv"
    # When the reference summarizes it
    status = run(dataset, sut)
    # Then rows follow byte order: B (0x42) < Z < a < b < é (0xC3 0xA9) < ü (0xC3 0xBC), all zeros
    assert status == 0
    assert [line.split(",")[0] for line in sut.read_text(encoding="utf-8").splitlines()[1:]] == \
        ["B", "Z", "a", "b", "é", "ü"]
