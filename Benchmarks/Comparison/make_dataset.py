#!/usr/bin/env python3
"""Vectorized numpy/polars generator of a SPEC dataset: the baseline for the simulator's CSV speed.

Writes `users.csv` (SPEC §1) and `meals.csv` (SPEC §2) into --out, and with --steps / --payments
also `steps.csv` (SPEC §3) and `payments.csv` (SPEC §4). Every column is drawn with whole-array
numpy operations and written by polars' CSV writer; no Python loop runs per row. The same seed
gives byte-identical files (for a given numpy/polars version). Prints rows/s per file and overall.

    python3 make_dataset.py --out /work/data/bench                     # 100k users, ~8.3M meals
    python3 make_dataset.py --out /work/data/bench-full --steps --payments
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

#: Local midnight of the first simulated day: Monday 2026-03-02 (so every instant lies in 2026).
FIRST_DAY_EPOCH = 1_772_409_600
DAY = 86_400
MAX_MEAL_S = 14_400

# Offsets (minutes east of UTC) and how common they are among the app's users, including the
# half- and quarter-hour zones (Newfoundland -210, India +330, Nepal +345, Chatham +765) and
# both ends of the allowed range.
UTC_OFFSETS = np.array([
    -720, -600, -570, -480, -420, -360, -300, -240, -210, -180, 0, 60, 120, 180, 210,
    240, 270, 300, 330, 345, 360, 420, 480, 540, 570, 600, 660, 720, 765, 780, 840])
UTC_OFFSET_WEIGHTS = np.array([
    0.2, 0.5, 0.1, 8, 4, 7, 14, 2, 0.6, 5, 6, 12, 6, 4, 0.6,
    1.5, 0.3, 1, 8, 0.5, 0.6, 2, 6, 3, 0.4, 2, 0.5, 1, 0.1, 0.5, 0.2])

PROTOCOLS = np.array(["16:8", "18:6", "20:4", "omad", "none"])
PROTOCOL_WEIGHTS = np.array([0.45, 0.15, 0.08, 0.07, 0.25])
PROTOCOL_WINDOW_H = np.array([8.0, 6.0, 4.0, 1.0, 14.0])  # `none` users eat over ~14 h
ACTIVITIES = np.array(["sedentary", "light", "moderate", "active", "very_active"])
ACTIVITY_WEIGHTS = np.array([0.30, 0.30, 0.25, 0.10, 0.05])

MEAL_TYPES = np.array(["breakfast", "lunch", "dinner", "snack"])
MEAL_TYPE_WEIGHTS = np.array([0.27, 0.30, 0.30, 0.13])
MEAL_POSITION = np.array([0.0, 0.45, 0.9, -1.0])  # place in the eating window; -1 = anywhere
MEAL_MINUTES = np.array([[10, 30], [15, 45], [20, 60], [2, 10]])  # duration range per type
MEAL_KCAL = np.array([[420, 120], [650, 170], [760, 200], [180, 80]])  # mean, sd per type

CURRENCIES = np.array(["USD", "EUR", "GBP", "INR", "BRL", "CAD", "AUD", "CHF", "SEK", "JPY", "KWD", "BHD"])
CURRENCY_WEIGHTS = np.array([50, 20, 8, 6, 4, 3, 3, 1, 1, 3, 0.5, 0.5])
CURRENCY_EXPONENT = np.array([2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 3, 3])
GATEWAY_SCRIPTS = np.array(["A", "D", "T;A", "L", "T;T;A", "L;D", "T;L;D", "T;T;T", "D;A", "T;T;T;A"])
GATEWAY_WEIGHTS = np.array([0.85, 0.05, 0.04, 0.02, 0.01, 0.01, 0.005, 0.01, 0.005, 0.005])


def weighted(rng: np.random.Generator, n: int, weights: np.ndarray) -> np.ndarray:
    """`n` indices drawn with the given relative weights."""
    cumulative = np.cumsum(weights) / weights.sum()
    return np.minimum(np.searchsorted(cumulative, rng.random(n), side="right"), len(weights) - 1)


def padded_id(prefix: str, index: pl.Expr, width: int) -> pl.Expr:
    """`prefix` + zero-padded decimal `index` (`u0000042`), so byte order equals numeric order."""
    return pl.concat_str(pl.lit(prefix), index.cast(pl.String).str.zfill(width))


def spoil(rng: np.random.Generator, n: int, *shares: float) -> list[np.ndarray]:
    """Disjoint random row indices, about `share` of `n` rows each: the rows to make bad, one way each."""
    draw = rng.random(n)
    bounds = np.cumsum((0.0, *shares))
    return [np.flatnonzero((draw >= low) & (draw < high)) for low, high in zip(bounds, bounds[1:])]


def strangers(rng: np.random.Generator, uidx: np.ndarray, n_users: int, share: float) -> None:
    """Points about `share` of the rows at users that users.csv lacks (ids past the last user)."""
    rows = np.flatnonzero(rng.random(len(uidx)) < share)
    uidx[rows] = n_users + rng.integers(0, max(1, n_users // 100), len(rows))


def arrival_order(rng: np.random.Generator, start: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """The file's row order: rows by start time, plus exact copies of about `share` of them, each
    redelivered somewhere after its original. Returns, per file row, the index of the generated
    row and its 1-based arrival number (its id; a copy keeps its original's)."""
    by_time = np.argsort(start, kind="stable")
    n = len(start)
    sources = np.flatnonzero(rng.random(n) < share)
    targets = sources + (rng.random(len(sources)) * (n - sources)).astype(np.int64)
    keys = np.concatenate([np.arange(n) * 2, targets * 2 + 1])
    position = np.concatenate([np.arange(n), sources])[np.argsort(keys, kind="stable")]
    return by_time[position], position + 1


def user_ids(n_users: int) -> pl.Series:
    """The ids of users 0..n_users-1 and of the unknown users drawn past them, to gather from."""
    return pl.select(padded_id("u", pl.int_range(n_users + n_users // 100 + 1), 7)).to_series()


def timed(path: Path, make) -> int:
    """Calls `make()` for a frame, writes it as CSV to `path`, prints the rows per wall second and per
    CPU second (all threads; less sensitive to other load on a shared machine); returns the row count."""
    began, cpu_began = time.perf_counter(), time.process_time()
    frame = make()
    generated = time.perf_counter()
    frame.write_csv(path, float_precision=1, quote_style="never")  # nulls become empty fields
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu_began
    print(f"{path.name}: {frame.height:,} rows in {wall:.2f} s (generate {generated - began:.2f} s, "
          f"write {began + wall - generated:.2f} s) = {frame.height / wall:,.0f} rows/s; "
          f"CPU {cpu:.2f} s = {frame.height / cpu:,.0f} rows/CPU-s", file=sys.stderr)
    return frame.height


def make_users(rng: np.random.Generator, n: int) -> tuple[pl.DataFrame, dict[str, np.ndarray]]:
    offset = UTC_OFFSETS[weighted(rng, n, UTC_OFFSET_WEIGHTS)]
    protocol = weighted(rng, n, PROTOCOL_WEIGHTS)
    male = rng.random(n) < 0.5
    age = np.clip(np.rint(rng.normal(41, 13, n)), 18, 85).astype(np.int64)
    weight = np.round(np.clip(rng.normal(np.where(male, 85, 70), 15), 40, 220), 1)
    height = np.round(np.clip(rng.normal(np.where(male, 176, 163), 7.5), 140, 210), 1)
    activity = weighted(rng, n, ACTIVITY_WEIGHTS)
    frame = pl.DataFrame({
        "uidx": np.arange(n), "utc_offset_minutes": offset, "protocol": PROTOCOLS[protocol],
        "sex": np.where(male, "male", "female"), "age": age, "weight_kg": weight, "height_cm": height,
        "activity": ACTIVITIES[activity],
    }).select(padded_id("u", pl.col("uidx"), 7).alias("user_id"), pl.exclude("uidx"))
    return frame, {"offset": offset, "protocol": protocol, "activity": activity}


def make_meals(rng: np.random.Generator, users: dict[str, np.ndarray], per_user: float, days: int) -> pl.DataFrame:
    n_users = len(users["offset"])
    appetite = rng.gamma(8.0, per_user / 8.0, n_users)
    counts = rng.poisson(appetite) * (rng.random(n_users) >= 0.02)  # 2% of users log nothing
    uidx = np.repeat(np.arange(n_users), counts)
    n = len(uidx)

    # When: a day, then a place in the user's eating window (which starts between 06:30 and 13:00
    # local), with noise so that some days break the protocol; minute resolution, so touching
    # meals and fasts of exactly 3 h occur.
    protocol = users["protocol"]
    window_h = PROTOCOL_WINDOW_H[protocol][uidx]
    window_start = np.where(protocol == 4, 390 + rng.integers(0, 120, n_users), 600 + rng.integers(0, 180, n_users))
    kind = weighted(rng, n, MEAL_TYPE_WEIGHTS)
    position = np.where(MEAL_POSITION[kind] < 0, rng.random(n), MEAL_POSITION[kind])
    minute = window_start[uidx] + position * window_h * 60 + rng.normal(0, 20, n)
    minute = np.rint(minute).astype(np.int64)
    day = rng.integers(0, days, n)
    start = FIRST_DAY_EPOCH + day * DAY + minute * 60 - users["offset"][uidx] * 60
    low, high = MEAL_MINUTES[kind, 0], MEAL_MINUTES[kind, 1]
    duration = (low + (rng.random(n) * (high - low + 1)).astype(np.int64)) * 60
    duration[rng.random(n) < 0.01] = 0  # quick log entries: zero-length meals are accepted
    duration[rng.random(n) < 0.0001] = MAX_MEAL_S  # a long feast at exactly the limit
    end = start + duration

    kcal = np.clip(rng.normal(MEAL_KCAL[kind, 0], MEAL_KCAL[kind, 1]), 5, None)
    protein_share, fat_share = 0.12 + 0.23 * rng.random(n), 0.2 + 0.2 * rng.random(n)  # of the energy
    protein = np.round(kcal * protein_share / 4, 1)
    carbs = np.round(kcal * (1 - protein_share - fat_share) / 4, 1)
    fat = np.round(kcal * fat_share / 9, 1)
    kcal = np.round(kcal, 1)

    # Bad rows, each of one kind: swapped ends, over-long meals, a negative value, unknown users.
    swapped, too_long, negative = spoil(rng, n, 0.001, 0.001, 0.001)
    swapped = swapped[duration[swapped] > 0]
    start[swapped], end[swapped] = end[swapped], start[swapped]
    end[too_long] = start[too_long] + MAX_MEAL_S + 1 + rng.integers(0, 20_000, len(too_long))
    column = rng.integers(0, 4, len(negative))
    for i, values in enumerate((kcal, protein, carbs, fat)):  # every value is > 0 before this
        values[negative[column == i]] *= -1
    strangers(rng, uidx, n_users, 0.001)

    rows, number = arrival_order(rng, start, 0.005)  # time order, users interleaved, redeliveries
    return pl.DataFrame({
        "meal_id": pl.select(padded_id("m", pl.lit(number), 8)).to_series(),
        "user_id": user_ids(n_users).gather(uidx[rows]),
        "start": start[rows], "end": end[rows], "type": pl.Series(MEAL_TYPES).gather(kind[rows]),
        "kcal": kcal[rows], "protein_g": protein[rows], "carbs_g": carbs[rows], "fat_g": fat[rows],
    })


def make_steps(rng: np.random.Generator, users: dict[str, np.ndarray], per_user: float, days: int) -> pl.DataFrame:
    n_users = len(users["offset"])
    counts = rng.poisson(rng.gamma(6.0, per_user / 6.0, n_users))
    uidx = np.repeat(np.arange(n_users), counts)
    n = len(uidx)
    has_watch = rng.random(n_users) < 0.6
    watch = has_watch[uidx] & (rng.random(n) < 0.45)
    minute = 360 + (rng.random(n) * 17 * 60).astype(np.int64)  # 06:00..23:00 local
    start = FIRST_DAY_EPOCH + rng.integers(0, days, n) * DAY + minute * 60 - users["offset"][uidx] * 60
    start += rng.integers(0, 60, n)
    duration = np.where(watch, rng.integers(300, 3_600, n), rng.integers(600, 7_200, n))
    pace = rng.gamma(2.0, 25.0 + 15.0 * users["activity"][uidx])  # steps per minute while active
    count = np.round(pace * duration / 60.0 * (rng.random(n) < 0.95), 1)  # some worn-but-idle watches
    end = start + duration

    bad_interval, negative = spoil(rng, n, 0.001, 0.001)
    end[bad_interval] = start[bad_interval] + np.where(rng.random(len(bad_interval)) < 0.5, 0, DAY + 1)
    negative = negative[count[negative] > 0]
    count[negative] *= -1
    strangers(rng, uidx, n_users, 0.001)

    rows, number = arrival_order(rng, start, 0.005)
    return pl.DataFrame({
        "sample_id": pl.select(padded_id("s", pl.lit(number), 9)).to_series(),
        "user_id": user_ids(n_users).gather(uidx[rows]),
        "source": pl.Series(["phone", "watch"]).gather(watch[rows].astype(np.uint8)),
        "start": start[rows], "end": end[rows], "count": count[rows],
    })


def make_payments(rng: np.random.Generator, n_users: int, per_user: float, days: int) -> pl.DataFrame:
    # Charges: each user pays mostly in one currency.
    user_currency = weighted(rng, n_users, CURRENCY_WEIGHTS)
    charges_per_user = rng.poisson(per_user * 0.86, n_users)
    uidx = np.repeat(np.arange(n_users), charges_per_user)
    n = len(uidx)
    currency = user_currency[uidx]
    exponent = CURRENCY_EXPONENT[currency]
    major = np.round(np.exp(rng.normal(3.0, 1.0, n)), 2).clip(0.5, 5_000)
    amount = np.maximum(1, np.rint(major * 10.0 ** exponent)).astype(np.int64)
    created = FIRST_DAY_EPOCH + rng.integers(0, days * DAY, n)
    key_index = np.arange(n)
    charges = {"uidx": uidx, "currency": currency, "amount": amount, "created": created,
               "kind": np.zeros(n, np.int64), "refund_of": np.full(n, -1), "key": key_index}

    # Refunds of about 9% of the charges, full or partial, some in the wrong currency or too large.
    refunded = np.flatnonzero(rng.random(n) < 0.09)
    m = len(refunded)
    full = rng.random(m) < 0.6
    refund_amount = np.where(full, amount[refunded],
                             np.maximum(1, (amount[refunded] * rng.random(m)).astype(np.int64)))
    refund_amount = np.where(rng.random(m) < 0.01, amount[refunded] + 1, refund_amount)
    refund_currency = np.where(rng.random(m) < 0.01, (currency[refunded] + 1) % len(CURRENCIES), currency[refunded])
    refunds = {"uidx": uidx[refunded], "currency": refund_currency, "amount": refund_amount,
               "created": created[refunded] + rng.integers(3_600, 5 * DAY, m), "kind": np.ones(m, np.int64),
               "refund_of": refunded, "key": n + np.arange(m)}

    rows = {k: np.concatenate([charges[k], refunds[k]]) for k in charges}
    # Client retries: a new row with the same key a few minutes later (a few with changed amounts).
    total = len(rows["uidx"])
    retried = np.flatnonzero(rng.random(total) < 0.05)
    retry = {k: v[retried].copy() for k, v in rows.items()}
    retry["created"] += rng.integers(30, 900, len(retried))
    conflict = rng.random(len(retried)) < 0.04
    retry["amount"] = np.where(conflict, retry["amount"] + 100, retry["amount"])
    rows = {k: np.concatenate([rows[k], retry[k]]) for k in rows}
    total = len(rows["uidx"])

    # Rows that fail validation, each of one kind.
    key = np.char.add("k", np.char.zfill(rows["key"].astype(str), 9)).astype(object)
    key[rng.random(total) < 0.001] = ""
    currency_code = CURRENCIES[rows["currency"]].astype(object)
    unsupported = rng.random(total) < 0.001
    currency_code[unsupported] = np.where(rng.random(int(unsupported.sum())) < 0.5, "usd", "XAU")
    amount = rows["amount"]
    invalid = rng.random(total) < 0.001
    amount = np.where(invalid, -rng.integers(0, 2, total), amount)
    over = (rng.random(total) < 0.0005) & ~invalid
    amount = np.where(over, 1_000_000 * 10 ** CURRENCY_EXPONENT[rows["currency"]] + 1, amount)
    uidx = rows["uidx"].copy()
    strangers(rng, uidx, n_users, 0.001)
    script = GATEWAY_SCRIPTS[weighted(rng, total, GATEWAY_WEIGHTS)]

    # File order is creation order; payment ids follow it; refunds name their charge's payment id.
    order = np.argsort(rows["created"], kind="stable")
    payment_number = np.empty(total, np.int64)
    payment_number[order] = np.arange(1, total + 1)
    refund_of = np.where(rows["refund_of"] >= 0, payment_number[np.maximum(rows["refund_of"], 0)], -1)
    frame = pl.DataFrame({
        "payment_number": payment_number[order], "key": key[order].astype(str), "uidx": uidx[order],
        "kind": np.where(rows["kind"] == 0, "charge", "refund")[order], "amount_minor": amount[order],
        "currency": currency_code[order].astype(str), "created_at": rows["created"][order],
        "refund_of": refund_of[order], "gateway": script[order],
    })
    return frame.select(
        padded_id("p", pl.col("payment_number"), 9).alias("payment_id"),
        pl.col("key").alias("idempotency_key"),
        padded_id("u", pl.col("uidx"), 7).alias("user_id"),
        "kind", "amount_minor", "currency", "created_at",
        pl.when(pl.col("refund_of") >= 0).then(padded_id("p", pl.col("refund_of"), 9)).alias("refund_of"),
        "gateway",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="directory to write the CSV files to")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--meals-per-user", type=float, default=83.0, help="mean meals per user over --days")
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--steps", action="store_true", help="also write steps.csv")
    parser.add_argument("--steps-per-user", type=float, default=230.0)
    parser.add_argument("--payments", action="store_true", help="also write payments.csv")
    parser.add_argument("--payments-per-user", type=float, default=7.0)
    args = parser.parse_args(argv)

    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    began, cpu_began = time.perf_counter(), time.process_time()
    users: dict[str, np.ndarray] = {}

    def make_users_frame() -> pl.DataFrame:
        frame, drawn = make_users(rng, args.users)
        users.update(drawn)
        return frame

    rows = timed(args.out / "users.csv", make_users_frame)
    rows += timed(args.out / "meals.csv", lambda: make_meals(rng, users, args.meals_per_user, args.days))
    if args.steps:
        rows += timed(args.out / "steps.csv", lambda: make_steps(rng, users, args.steps_per_user, args.days))
    if args.payments:
        rows += timed(args.out / "payments.csv", lambda: make_payments(rng, args.users, args.payments_per_user, args.days))
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu_began
    print(f"total: {rows:,} rows in {wall:.2f} s = {rows / wall:,.0f} rows/s; "
          f"CPU {cpu:.2f} s = {rows / cpu:,.0f} rows/CPU-s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
