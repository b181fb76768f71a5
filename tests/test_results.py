"""golois.datasets.results and golois.datasets.tygem: which results count, the Tygem reader on a
fixture written here (bad lines, illegal moves, unknown results), results in shards, the held-out
split, and value targets from the player to move's side."""

import numpy as np
import pytest

from golois.datasets import open_dataset
from golois.datasets.results import (BLACK_WON, NO_WINNER, WHITE_WON, ValueConfig, kind_code, parse_result,
                                     value_targets)
from golois.datasets.shards import BuildConfig, Shard, build
from golois.datasets.loader import shard_folders
from golois.datasets import tygem
from golois.datasets.sources import FilterConfig, find_sources


@pytest.mark.parametrize("text,winner,kind", [
    ("B+R", BLACK_WON, "resign"), ("W+Resign", WHITE_WON, "resign"), ("B+12.5", BLACK_WON, "score"),
    ("W+0.5", WHITE_WON, "score"), ("B+T", BLACK_WON, "time"), ("W+Time", WHITE_WON, "time"),
    ("B+F", BLACK_WON, "forfeit"), ("W+Offline", WHITE_WON, "forfeit"), ("0", NO_WINNER, "draw"),
    ("Draw", NO_WINNER, "draw"), ("Void", NO_WINNER, "void"), ("?", NO_WINNER, "unknown"),
    ("", NO_WINNER, "unknown"), ("B+", BLACK_WON, "unknown"), ("W+0", NO_WINNER, "draw"),
])
def test_parse_result(text, winner, kind):
    assert parse_result(text) == (winner, kind)


def test_value_config_counts_decided_games_at_usual_komi():
    winners = np.array([1, -1, 1, 1, 0, -1])
    kinds = np.array([kind_code(k) for k in ("resign", "score", "time", "resign", "draw", "score")])
    komi = np.array([6.5, 7.5, 6.5, 0.5, 6.5, 5.5], np.float32)
    assert ValueConfig().counts(winners, kinds, komi).tolist() == [True, True, False, False, False, True]
    assert ValueConfig(komi=(0.0, 7.5)).counts(winners, kinds, komi)[3]


def test_value_targets_are_from_the_mover_side():
    target, ok = value_targets(np.array([1, 1, -1, -1, 1]), np.array([True, True, True, True, False]),
                               np.array([1, 2, 1, 2, 1]), black=1)
    assert target.tolist() == [1, -1, -1, 1, 0] and ok.tolist() == [True, True, True, True, False]


# the Tygem fixture (`tygem_folder`) and its games: tests/conftest.py


def test_tygem_lines_become_sgf_with_results(tygem_folder):
    archive = str(tygem_folder / "2008-12.zip")
    assert tygem.is_tygem(archive) and find_sources(str(tygem_folder)) == [archive]
    games = dict(tygem.read_games(archive))
    assert sorted(games) == tygem.game_names(archive) and "2008-12/line4" in games
    assert games["2008-12/line4"] == b""
    assert b"RE[B+Resign]" in games["2008-12/1001"] and b"KM[6.5]" in games["2008-12/1001"]
    assert b"DT[2008-12-01]" in games["2008-12/1001"] and b"RE[]" in games["2008-12/1005"]


def test_tygem_build_counts_bad_lines_and_holds_out_the_month(tygem_folder, tmp_path):
    s = build(BuildConfig(sources=(str(tygem_folder),), out=str(tmp_path / "out"), feature_set="paper11",
                          workers=1, progress=False))
    assert s["games_seen"] == 6 and s["games_kept"] == 4
    assert s["dropped"] == {"illegal move": 1, "malformed": 1}
    assert s["positions_by_split"] == {"train": 0, "test": 0, "heldout": 5 + 4 + 3 + 3}
    shard = Shard(shard_folders(str(tmp_path / "out"))[0])
    assert shard.names == ["2008-12/1001", "2008-12/1002", "2008-12/1005", "2008-12/1006"]
    assert shard.winners.tolist() == [1, -1, 0, 1]
    assert [shard.kinds.tolist()[i] for i in range(4)] == [kind_code(k) for k in ("resign", "score", "unknown", "time")]
    assert shard.komi.tolist() == [6.5] * 4 and shard.years.tolist() == [2008] * 4
    from golois.datasets.results import summarize_results
    r = summarize_results([shard])["tygem"]
    assert r["games"] == 4 and r["kinds"]["resign"] == r["kinds"]["score"] == r["kinds"]["time"] == 1
    assert r["decided_by_komi"] == {"6.5": {"games": 2, "black_wins": 0.5}}
    held = open_dataset(str(tmp_path / "out"), split="heldout", value=ValueConfig())
    assert len(held) == 15 and len(open_dataset(str(tmp_path / "out"), split="train")) == 0
    planes, moves, target, weight = held[list(range(len(held)))]
    # game 1001 (black won): black to move at moves 1, 3, 5; game 1002 (white won); the others count not
    assert target[:9].tolist() == [1, -1, 1, -1, 1, -1, 1, -1, 1]
    assert weight.tolist() == [1.0] * 9 + [0.0] * 6
    assert moves[:2].tolist() == [3 * 19 + 15, 15 * 19 + 3]


def test_value_per_game_draws_a_few_positions_of_each_game(tygem_folder, tmp_path):
    build(BuildConfig(sources=(str(tygem_folder),), out=str(tmp_path / "out"), feature_set="paper11",
                      workers=1, progress=False, filters=FilterConfig(heldout_sources=())))
    all_rows = open_dataset(str(tmp_path / "out"), value=ValueConfig(), symmetries=False)
    few = open_dataset(str(tmp_path / "out"), value=ValueConfig(), value_per_game=1, symmetries=False)
    idx = np.arange(len(all_rows))
    w_all, w_few = all_rows.values(idx)[1], few.values(idx)[1]
    assert w_all.sum() == 9 and 0 < w_few.sum() < 9 and set(np.flatnonzero(w_few)) <= set(np.flatnonzero(w_all))
    assert np.array_equal(w_few, few.values(idx)[1])      # deterministic


def test_a_truncated_tygem_month_gives_the_games_before_the_damage(tygem_folder, tmp_path):
    import random
    import zipfile
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrs"
    lines = []
    for g in range(300):
        points = rng.sample([a + b for a in letters[2:17:2] for b in letters[2:17:2]], 12)   # never adjacent
        lines.append(f"{5000 + g}\t" + "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(points)))
    archive = tygem_folder / "2008-11.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("2008-11", "\n".join(lines) + "\n")
    raw = archive.read_bytes()
    archive.write_bytes(raw[: len(raw) * 2 // 3])
    names = tygem.game_names(str(archive))
    assert 0 < len(names) < 300 and names[0] == "2008-11/5000"
    s = build(BuildConfig(sources=(str(archive),), out=str(tmp_path / "out"), feature_set="paper11",
                          workers=1, progress=False))
    assert s["dropped"] == {"unreadable member": 1} and s["games_kept"] == len(names)
    assert s["games_seen"] == len(names) + 1
