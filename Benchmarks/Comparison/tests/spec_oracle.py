"""A deliberately plain, row-by-row reading of SPEC §1-§2, used only to cross-check the polars
reference on generated data (too slow for the benchmark; CSV files without BOM or gzip)."""

from __future__ import annotations

import re
from pathlib import Path

INTEGER = re.compile(r"-?[0-9]+\Z")
DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?\Z")
LIMITS = {"16:8": 8 * 3600, "18:6": 6 * 3600, "20:4": 4 * 3600, "omad": 3600, "none": None}
TYPES = {"breakfast", "lunch", "dinner", "snack"}


def rows(path: Path) -> tuple[list[str], list[list[str]]]:
    lines = [line for line in path.read_text().split("\n") if line]
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


def is_int(text: str) -> bool:
    return bool(INTEGER.match(text)) and -(2**63) <= int(text) < 2**63


def summary(directory: Path, min_fast: int = 10_800) -> tuple[str, dict[str, int]]:
    """The `fasting_summary.csv` text and the meals' counts by reason (`accepted` for none)."""
    header, data = rows(directory / "users.csv")
    col = {name: i for i, name in enumerate(header)}
    users: dict[str, tuple[int, int | None]] = {}
    for fields in data:
        if len(fields) != len(header):
            continue
        uid, offset, protocol = fields[col["user_id"]], fields[col["utc_offset_minutes"]], fields[col["protocol"]]
        if uid == "" or not is_int(offset) or not -720 <= int(offset) <= 840 or protocol not in LIMITS:
            continue
        users.setdefault(uid, (int(offset), LIMITS[protocol]))

    header, data = rows(directory / "meals.csv")
    col = {name: i for i, name in enumerate(header)}
    decimals = ["kcal", "protein_g", "carbs_g", "fat_g"]
    meals: dict[str, list[tuple[int, int]]] = {uid: [] for uid in users}
    rejected = dict.fromkeys(users, 0)
    counts: dict[str, int] = {}
    accepted_ids: set[str] = set()
    for fields in data:
        uid = fields[col["user_id"]] if col["user_id"] < len(fields) else None
        reason = None
        if (len(fields) != len(header) or fields[col["meal_id"]] == "" or uid == ""
                or not is_int(fields[col["start"]]) or not is_int(fields[col["end"]])
                or fields[col["type"]] not in TYPES or not all(DECIMAL.match(fields[col[d]]) for d in decimals)):
            reason = "malformed"
        elif uid not in users:
            reason = "unknown_user"
        else:
            start, end = int(fields[col["start"]]), int(fields[col["end"]])
            if end < start:
                reason = "end_before_start"
            elif end - start > 14_400:
                reason = "too_long"
            elif any(float(fields[col[d]]) < 0 for d in decimals):
                reason = "negative_value"
            elif fields[col["meal_id"]] in accepted_ids:
                reason = "duplicate"
        counts[reason or "accepted"] = counts.get(reason or "accepted", 0) + 1
        if reason is None:
            accepted_ids.add(fields[col["meal_id"]])
            meals[uid].append((start, end))
        elif uid in rejected:
            rejected[uid] += 1

    out = ["user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days"]
    for uid in sorted(users, key=lambda u: u.encode()):
        offset, limit = users[uid]
        episodes: list[list[int]] = []
        for start, end in sorted(meals[uid]):
            if episodes and start <= episodes[-1][1]:
                episodes[-1][1] = max(episodes[-1][1], end)
            else:
                episodes.append([start, end])
        fasts = [b[0] - a[1] for a, b in zip(episodes, episodes[1:]) if b[0] - a[1] >= min_fast]
        days: dict[int, list[int]] = {}
        for start, end in episodes:
            day = (start + 60 * offset) // 86_400
            first_start, _ = days.get(day, [start, end])
            days[day] = [first_start, end]
        evaluated = 0 if limit is None else len(days)
        compliant = 0 if limit is None else sum(1 for s, e in days.values() if e - s <= limit)
        out.append(f"{uid},{len(meals[uid])},{rejected[uid]},{len(episodes)},{len(fasts)},{sum(fasts)},"
                   f"{max(fasts, default=0)},{evaluated},{compliant}")
    return "\n".join(out) + "\n", counts
