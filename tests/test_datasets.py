"""golois.datasets: filters on SGF written here, archives (tar.gz, zip, folders) with corrupt
members, shard round trip against encode(), resume and idempotence, feature-set mismatch,
symmetries of planes and moves, the canonical test sample's manifest."""

import io
import os
import tarfile
import zipfile

import numpy as np
import pytest

from golois.datasets import FeatureSetMismatch, encode, open_dataset
from golois.datasets.loader import apply_symmetry, map_moves
from golois.datasets.shards import BuildConfig, build
from golois.datasets.sources import FilterConfig, GameStats, game_positions, read_members
from golois.sgf import parse_game

# A ko: black's 9th move (cb) takes one stone and leaves the ko point bb banned for white, so the
# position before move 10 is dropped; move 11 is a pass (never a target).  12 moves, 10 kept.
KO_MOVES = ";B[ba];W[ca];B[ab];W[cc];B[bc];W[db];B[kk];W[bb];B[cb];W[pp];B[];W[dd]"
PLAIN_MOVES = ";B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qf]"


def sgf(moves=PLAIN_MOVES, br="6d", wr="7d", extra="", size=19):
    ranks = (f"BR[{br}]" if br else "") + (f"WR[{wr}]" if wr else "")
    return f"(;GM[1]FF[4]SZ[{size}]KM[6.5]{ranks}DT[2001-02-03]{extra}{moves})".encode()


def keep(data, cfg=FilterConfig()):
    stats = GameStats()
    return game_positions(data, "kgs-19-2001/x.sgf", cfg, stats), stats


def test_ko_positions_and_passes_are_not_targets():
    g, stats = keep(sgf(KO_MOVES))
    assert list(g.kept) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 11]
    assert stats.positions_dropped == {"ko": 1, "pass": 1} and stats.positions == 10
    g, _ = keep(sgf(KO_MOVES), FilterConfig(drop_ko=False))
    assert 9 in g.kept and 10 not in g.kept


@pytest.mark.parametrize("data,reason", [
    (sgf(extra="HA[2]AB[dd][pp]", moves=";W[dp]"), "handicap"),
    (sgf(extra="AB[dd]", moves=";W[dp]"), "handicap"),
    (sgf(br="5d"), "rank"),
    (sgf(wr="3k"), "rank"),
    (sgf(br=""), "rank"),
    (sgf(size=13, moves=";B[dd]"), "not 19x19"),
    (sgf(moves=";B[dd];W[dd]"), "illegal move"),
    (b"not an sgf at all", "malformed"),
    (sgf(moves=""), "no moves"),
])
def test_games_dropped_by_reason(data, reason):
    g, stats = keep(data)
    assert g is None and stats.dropped == {reason: 1}


def test_ranks_kept():
    assert keep(sgf(br="6d", wr="1p"))[0] is not None
    assert keep(sgf(br="7d?", wr="9d"))[0] is not None
    assert keep(sgf(br="5d"), FilterConfig(min_rank=5))[0] is not None


def _tar(path, members, truncate=False):
    with tarfile.open(path, "w:gz") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    if truncate:
        raw = open(path, "rb").read()
        open(path, "wb").write(raw[: len(raw) * 2 // 3])


MEMBERS = {
    "kgs-19-2001/2001-01-01-1.sgf": sgf(KO_MOVES),
    "kgs-19-2001/2001-01-01-2.sgf": sgf(),
    "kgs-19-2001/2001-01-01-3.sgf": b"(;GM[1]SZ[19];B[dd]",               # corrupt
    "kgs-19-2001/2001-01-01-4.sgf": b"\xff\xfe garbage",                    # corrupt
    "kgs-19-2001/2001-01-01-5.sgf": sgf(extra="HA[2]AB[dd][pp]", moves=";W[dp]"),
    "kgs-19-2001/readme.txt": b"not a game",
}
TEST_MEMBERS = {"kgs-19-2015/2015-05-05-1.sgf": sgf(PLAIN_MOVES[:-6])}


@pytest.fixture
def archives(tmp_path):
    src = tmp_path / "kgs"
    src.mkdir()
    _tar(src / "KGS-2001-19-5-.tar.gz", MEMBERS)
    _tar(src / "KGS-2015-19-1-.tar.gz", TEST_MEMBERS)
    return src


def _build(src, out, fs="paper11", **kw):
    return build(BuildConfig(sources=str(src), out=str(out), feature_set=fs, workers=1, progress=False,
                             games_per_shard=2, **kw))


def test_build_counts_corrupt_members_and_splits_by_year(archives, tmp_path):
    s = _build(archives, tmp_path / "out")
    assert s["games_seen"] == 6 and s["games_kept"] == 3
    assert s["dropped"] == {"malformed": 2, "handicap": 1}
    assert s["positions_by_split"] == {"train": 10 + 8, "test": 7, "heldout": 0}


def test_truncated_archive_is_not_fatal(tmp_path):
    big = {f"kgs-19-2001/g{i}.sgf": sgf(PLAIN_MOVES + f";B[{chr(97 + i % 19)}s]") for i in range(200)}
    src = tmp_path / "kgs"
    src.mkdir()
    _tar(src / "KGS-2001-19-200-.tar.gz", big, truncate=True)
    s = _build(src, tmp_path / "out")
    assert s["dropped"].get("unreadable member", 0) >= 1 and s["games_kept"] < 200


def test_zip_and_folder_sources(tmp_path):
    z = tmp_path / "KGS-2001.zip"
    with zipfile.ZipFile(z, "w") as f:
        for name, data in MEMBERS.items():
            f.writestr(name, data)
    folder = tmp_path / "sgfs"
    for name, data in MEMBERS.items():
        os.makedirs(folder / os.path.dirname(name), exist_ok=True)
        (folder / name).write_bytes(data)
    for src in (z, folder):
        names = [n for n, _ in read_members(str(src))]
        assert len(names) == 5 and all(n.endswith(".sgf") for n in names)


def test_shard_round_trip_equals_encode(archives, tmp_path):
    _build(archives, tmp_path / "out")
    ds = open_dataset(str(tmp_path / "out"), split="all", symmetries=False)
    assert ds.feature_set == {"name": "paper11", "version": 1, "planes": 11} and len(ds) == 25
    games = {**MEMBERS, **TEST_MEMBERS}
    seen = 0
    for shard_i, row in ds.refs:
        shard = ds.shards[shard_i]
        gi, move_index, target = shard.index[row]
        game = parse_game(games[shard.names[gi]])
        expected = encode(game.board_at(int(move_index)), "paper11")
        planes, move = ds[seen]
        assert np.array_equal(planes.numpy(), expected)
        assert int(move) == target == game.moves[move_index].point
        seen += 1
    planes, moves = ds[list(range(len(ds)))]
    assert planes.shape == (25, 11, 19, 19) and moves.dtype.is_floating_point is False


def test_resume_and_idempotence(archives, tmp_path):
    out = tmp_path / "out"
    first = _build(archives, out)
    files = {p: open(p, "rb").read() for p in sorted(str(q) for q in out.rglob("*.npy"))}
    again = _build(archives, out)
    assert again["built_shards"] == 0 and again["skipped_shards"] == first["built_shards"] + first["skipped_shards"]
    victim = sorted((out / "shards").iterdir())[0]
    for f in victim.iterdir():
        f.unlink()
    victim.rmdir()
    (out / "shards" / ".tmp-leftover").mkdir()                           # an interrupted write
    resumed = _build(archives, out)
    assert resumed["built_shards"] == 1 and not (out / "shards" / ".tmp-leftover").exists()
    assert {p: open(p, "rb").read() for p in files} == files
    assert resumed["positions_by_split"] == first["positions_by_split"]


def test_feature_set_mismatch(archives, tmp_path):
    out = tmp_path / "out"
    _build(archives, out)
    with pytest.raises(FeatureSetMismatch, match="paper11"):
        open_dataset(str(out), split="all", feature_set="golois")
    with pytest.raises(ValueError, match="another configuration"):
        _build(archives, out, filters=FilterConfig(min_rank=7))


def test_symmetries_map_planes_and_moves_consistently(archives, tmp_path):
    for k in range(8):
        for m in (0, 5, 19 * 3 + 7, 360):
            onehot = np.zeros(361)
            onehot[m] = 1
            assert np.argmax(apply_symmetry(onehot.reshape(19, 19), k).ravel()) == map_moves(m, k, 19)
    _build(archives, tmp_path / "out")
    plain = open_dataset(str(tmp_path / "out"), split="train", symmetries=False)
    sym = open_dataset(str(tmp_path / "out"), split="train", symmetries=True)
    ks = sym.symmetry_of(np.arange(len(sym)))
    assert len(set(ks)) > 1
    for i in range(len(sym)):
        x, m = plain[i]
        y, n = sym[i]
        assert np.array_equal(apply_symmetry(x.numpy(), int(ks[i])), y.numpy())
        assert map_moves(int(m), int(ks[i]), 19) == int(n)
        assert y.numpy()[0].ravel()[int(n)] == 1                       # the target is empty
    sym.set_epoch(1)
    assert not np.array_equal(sym.symmetry_of(np.arange(len(sym))), ks)


def test_loader_batches(archives, tmp_path):
    from golois.datasets.loader import make_loader
    _build(archives, tmp_path / "out")
    ds = open_dataset(str(tmp_path / "out"), split="train")
    batches = list(make_loader(ds, batch_size=4, workers=0))
    assert len(batches) == len(ds) // 4 and batches[0][0].shape == (4, 11, 19, 19)


def test_canonical_sample_manifest_checksum(tmp_path):
    from golois.datasets import sample
    if not os.path.exists(sample.MANIFEST):
        pytest.skip("canonical manifest not generated")
    m = sample.load_manifest()
    assert m["positions"] == 100_000 and m["year"] == 2015
    assert os.path.getsize(sample.MANIFEST) < 600_000
    m["games"][0][2][0] = (m["games"][0][2][0] + 1) % 361
    bad = tmp_path / "bad.json.gz"
    sample.save_manifest(m, str(bad))
    with pytest.raises(ValueError, match="checksum"):
        sample.load_manifest(str(bad))


@pytest.mark.parametrize("fs", ["golois", "golois_ld"])
def test_tactical_shards_equal_encode(archives, tmp_path, fs):
    """Shards of the tactical feature sets (the ladder planes; the life planes too) hold what
    encode() computes at play time, plane for plane."""
    pytest.importorskip("tactics.ladder")
    ladder_game = ";B[dd];W[de];B[ee];W[cd];B[ce];W[dc];B[df];W[pp];B[ed];W[qd]"
    src = tmp_path / "tac"
    src.mkdir()
    _tar(src / "KGS-2001-19-1-.tar.gz", {"kgs-19-2001/t.sgf": sgf(ladder_game), **MEMBERS})
    _build(src, tmp_path / "out", fs=fs)
    ds = open_dataset(str(tmp_path / "out"), split="all", symmetries=False, feature_set=fs)
    games = {"kgs-19-2001/t.sgf": sgf(ladder_game), **MEMBERS}
    fs = ds.fset
    assert sum(ds[i][0].numpy()[fs.slice("ladder_saves")].sum() for i in range(len(ds))) > 0
    for i, (shard_i, row) in enumerate(ds.refs):
        shard = ds.shards[shard_i]
        gi, move_index, _ = shard.index[row]
        board = parse_game(games[shard.names[gi]]).board_at(int(move_index))
        assert np.array_equal(ds[i][0].numpy(), encode(board, fs))
    if fs == "golois_ld":                          # the ladder game's atari reaches the life planes
        assert sum(ds[i][0].numpy()[ds.fset.slice("capture_enemy")].sum() for i in range(len(ds))) > 0
