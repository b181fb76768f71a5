"""golois.datasets.ownership and the value's ownership targets in golois.datasets.loader: final
positions judged by rollouts on a game written here (two walls, a dead stone), which games get an
ownership, the loader's owners for the player to move under symmetries, and GNU Go's dead stones.

The game (black's wall on row 9, white's on row 10, a dead white stone at E15 in black's area):

    row 0-8   . . . . . . . . . . . . . . . . . . .    black's area (and W at row 4, col 4)
    row 9     X X X X X X X X X X X X X X X X X X X
    row 10    O O O O O O O O O O O O O O O O O O O
    row 11-18 . . . . . . . . . . . . . . . . . . .    white's area
"""

import numpy as np
import pytest

from golois.datasets import ownership as O
from golois.datasets import open_dataset
from golois.datasets.loader import shard_folders
from golois.datasets.results import ValueConfig
from golois.datasets.shards import Shard
from golois.rollout.weights import load_policy
from golois.symmetry import apply as apply_symmetry
from tactics.board import BLACK
from tests.conftest import DEAD, walls_game

@pytest.fixture(scope="module")
def policy():
    p = load_policy()
    assert p is not None
    return p


def test_rollouts_judge_the_walls_and_the_dead_stone(policy):
    moves = np.array(walls_game(), np.int16)
    colours = np.array([BLACK if i % 2 == 0 else 3 - BLACK for i in range(len(moves))], np.int8)
    assert len(moves) % 2 == 0
    owner, score = O.final_ownership(policy, moves, colours, 6.5, O.OwnershipConfig(rollouts=16))
    grid = owner.reshape(19, 19)
    assert (grid[:10] > 0.5).mean() > 0.95 and (grid[10:] < -0.5).mean() > 0.95
    assert grid[4, 4] > 0.5                                  # the white stone is black's at the end
    assert score > 0
    board = O.replay(moves, colours)
    assert board.to_move == BLACK and O.dead_stones(board, owner) == {DEAD}


def test_only_counted_games_the_rollouts_agree_with_get_an_ownership(walls_month, policy):
    folders = shard_folders(str(walls_month))
    totals = O.add_ownership(folders, policy, O.OwnershipConfig(rollouts=8), progress=False)
    assert totals["judged"] == 2 and totals["winner_agrees"] == 1   # 2003 resigned: not judged
    folder = folders[0]
    owned = np.load(folder + "/" + O.OWNED_FILE)
    table = np.load(folder + "/" + O.OWNERSHIP_FILE)
    assert owned.tolist() == [True, False, False] and table.dtype == np.int8
    assert table[0].reshape(19, 19)[0, 0] > 50 and table[0].reshape(19, 19)[18, 18] < -50
    # a second call leaves judged shards alone
    assert O.add_ownership(folders, policy, progress=False)["shards"] == 0


def test_the_loader_gives_the_owner_for_the_player_to_move_under_its_symmetry(walls_month, policy):
    O.add_ownership(shard_folders(str(walls_month)), policy, O.OwnershipConfig(rollouts=8), progress=False)
    plain = open_dataset(str(walls_month), value=ValueConfig(), value_from_move=10, value_inputs=True,
                         ownership=True, symmetries=False)
    turned = open_dataset(str(walls_month), value=ValueConfig(), value_from_move=10, value_inputs=True,
                          ownership=True, symmetries=True, seed=3)
    idx = np.arange(len(plain))
    planes, moves, target, weight, own, own_w = (t.numpy() for t in plain[list(idx)])
    games = Shard(shard_folders(str(walls_month))[0]).index[:, 0]
    numbers = plain.move_numbers(idx)
    assert planes.shape[1] == 11 + 2                        # paper11 and the colour and komi planes
    black = numbers % 2 == 0
    assert np.allclose(planes[:, 11, 0, 0], np.where(black, 1.0, -1.0))
    assert np.allclose(planes[:, 12, 5, 5], np.where(black, -6.5, 6.5) / 20)
    assert (weight[numbers < 10] == 0).all() and (weight[(numbers >= 10) & (games < 2)] == 1).all()
    assert (own_w == weight * (games == 0)).all()           # game 2002 counted but contradicted
    first = np.flatnonzero(games == 0)
    assert np.allclose(own[first[0]], np.load(shard_folders(str(walls_month))[0] + "/ownership.npy")[0] / 100)
    assert np.allclose(own[first[1]], -own[first[0]])       # white to move: the owner's sign turns
    t_planes, _, _, _, t_own, _ = (t.numpy() for t in turned[list(idx)])
    for i in first[:6]:
        k = int(turned.symmetry_of(np.array([i]))[0])
        assert np.allclose(t_own[i], apply_symmetry(own[i].reshape(1, 1, 19, 19), k).reshape(-1))
        assert np.allclose(t_planes[i], apply_symmetry(planes[i][None], k)[0])


def test_gnugo_names_the_same_dead_stone(walls_month, policy, gnugo_path):
    folders = shard_folders(str(walls_month))
    O.add_ownership(folders, policy, O.OwnershipConfig(rollouts=8), progress=False)
    s = Shard(folders[0])
    end = int(s.games[1])
    assert O.gnugo_dead(s.moves[:end], s.colours[:end], [gnugo_path, "--mode", "gtp"]) == {DEAD}
    report = O.check_with_gnugo(folders, [gnugo_path, "--mode", "gtp"], games=5, progress=False)
    assert report == {"games": 1, "same_dead_stones": 1.0, "stones_agreeing": 1.0}
