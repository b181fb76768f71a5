"""Final ownership of counted games: the value head's second target.

Start with `final_ownership` (one game's moves -> the mean final owner of each point, judged by
rollouts of the rollout policy from the last position), then `add_ownership` (every shard of a
dataset gains `ownership.npy` and `owned.npy`; resumable, shard by shard).

A game ended by counting stops with dead stones still on the board and dame open; the rollout
policy (golois.rollout, tactics.rollout) plays such positions out in a few dozen moves: it fills
the dame, captures what cannot live, and never fills its own eyes, so the mean final owner over
`rollouts` playouts says which stones were dead and who owns each point.  Games that ended
otherwise (resignation, time) have no final position to judge: their ownership is masked.  So
is a counted game whose rollouts give the other winner than its record (24% of the counted games
of KGS and Tygem: many records stop before the last moves, with open borders left).

Per shard (beside the files golois.datasets.shards writes):

    ownership.npy  int8 [G, size*size]  mean final owner x 100, black's frame (+100 black, -100 white)
    owned.npy      bool [G]             the game has a judged ownership (kind `score`, komi counted,
                                        and the rollouts' winner is the record's)

written into temporary files and renamed, `owned.npy` last, so a shard either has both or is
judged again.  `check_with_gnugo` compares the stones judged dead with GNU Go's
`final_status_list dead` on a sample of games.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

import numpy as np

from golois.datasets.results import ValueConfig, kind_code
from golois.datasets.shards import Shard
from tactics.board import BLACK, WHITE, Board, IllegalMove
from tactics.coords import format_vertex, from_flat, vertex_to_flat

OWNERSHIP_FILE, OWNED_FILE = "ownership.npy", "owned.npy"


@dataclass(frozen=True)
class OwnershipConfig:
    """How final positions are judged."""
    rollouts: int = 32             # rollouts of the rollout policy from each final position
    seed: int = 1
    kinds: tuple[str, ...] = ("score",)   # the results whose final position is judged


def replay(moves: np.ndarray, colours: np.ndarray, size: int = 19) -> Board:
    """The board after a game's moves (flat points, -1 = pass; each with its colour); raises
    IllegalMove for a move the rules refuse."""
    board = Board(size)
    for m, c in zip(moves.tolist(), colours.tolist()):
        board.play(None if m < 0 else divmod(m, size), int(c))
    board.to_move = BLACK if len(colours) == 0 or int(colours[-1]) != BLACK else WHITE
    return board


def final_ownership(policy, moves: np.ndarray, colours: np.ndarray, komi: float,
                    cfg: OwnershipConfig = OwnershipConfig(), size: int = 19) -> tuple[np.ndarray, float]:
    """(mean final owner of each flat point in [-1, 1], black's frame; the rollouts' mean score
    less komi) of the game's last position."""
    board = replay(moves, colours, size)
    _, score, owner, _ = policy.rollouts(board, n=cfg.rollouts, komi=komi, seed=cfg.seed, ownership=True)
    return np.asarray(owner, np.float32).reshape(-1), float(score)


def judged_ownership(policy, moves: np.ndarray, colours: np.ndarray, komi: float, winner: int,
                     cfg: OwnershipConfig = OwnershipConfig(), size: int = 19) -> np.ndarray | None:
    """`final_ownership`'s map of a counted game, or None when the rollouts' winner is not the
    record's `winner` (+1 black, -1 white)."""
    owner, score = final_ownership(policy, moves, colours, komi, cfg, size)
    return owner if np.sign(score) == np.sign(winner) else None


def shard_ownership(shard: Shard, policy, cfg: OwnershipConfig = OwnershipConfig(),
                    value: ValueConfig = ValueConfig()) -> tuple[np.ndarray, np.ndarray, dict]:
    """(ownership int8 [G, n*n], owned bool [G], counts) of one shard's games."""
    n = shard.meta["size"]
    games = len(shard.winners)
    own = np.zeros((games, n * n), np.int8)
    owned = value.counts(shard.winners, shard.kinds, shard.komi) & \
        np.isin(shard.kinds, [kind_code(k) for k in cfg.kinds])
    stats = {"games": games, "judged": 0, "illegal": 0, "winner_agrees": 0}
    for g in np.flatnonzero(owned):
        lo, hi = int(shard.games[g]), int(shard.games[g + 1])
        try:
            owner = judged_ownership(policy, shard.moves[lo:hi], shard.colours[lo:hi], float(shard.komi[g]),
                                     int(shard.winners[g]), cfg, n)
        except IllegalMove:
            owned[g] = False
            stats["illegal"] += 1
            continue
        stats["judged"] += 1
        if owner is None:
            owned[g] = False              # the record stops short of the end, or the rollouts misread it
            continue
        own[g] = np.rint(100 * owner).astype(np.int8)
        stats["winner_agrees"] += 1
    return own, owned, stats


def has_ownership(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, OWNED_FILE))


def _save(folder: str, name: str, array: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npy", dir=folder)
    with os.fdopen(fd, "wb") as f:
        np.save(f, array)
    os.replace(tmp, os.path.join(folder, name))


def add_ownership(folders: list[str], policy, cfg: OwnershipConfig = OwnershipConfig(),
                  force: bool = False, progress: bool = True) -> dict:
    """Judge the counted games of every shard folder that has no ownership yet (all with
    `force`); returns the summed counts."""
    from tqdm import tqdm
    total = {"shards": 0, "games": 0, "judged": 0, "illegal": 0, "winner_agrees": 0}
    for folder in tqdm(folders, desc="ownership", unit="shard", disable=not progress):
        if has_ownership(folder) and not force:
            continue
        own, owned, stats = shard_ownership(Shard(folder), policy, cfg)
        _save(folder, OWNERSHIP_FILE, own)
        _save(folder, OWNED_FILE, owned)
        total["shards"] += 1
        for k, v in stats.items():
            total[k] += v
    return total


def dead_stones(board: Board, owner: np.ndarray) -> set[int]:
    """Flat points of the stones whose mean final owner is the other colour (owner in black's
    frame, [-1, 1])."""
    arr = board.to_array().reshape(-1)
    return {int(p) for p in np.flatnonzero(((arr == BLACK) & (owner < 0)) | ((arr == WHITE) & (owner > 0)))}


def gnugo_dead(moves: np.ndarray, colours: np.ndarray, command: list[str], size: int = 19) -> set[int]:
    """Flat points of the stones GNU Go's `final_status_list dead` names after the game's moves
    (`command`: GNU Go in GTP mode, e.g. ["gnugo", "--mode", "gtp"])."""
    lines = [f"boardsize {size}", "clear_board"]
    for m, c in zip(moves.tolist(), colours.tolist()):
        colour = "b" if int(c) == BLACK else "w"
        lines.append(f"play {colour} {format_vertex(None if m < 0 else from_flat(m, size), size)}")
    lines += ["final_status_list dead", "quit"]
    out = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout
    answers = [a for a in out.split("\n\n") if a.startswith("=")]
    dead = answers[-2][1:].split() if len(answers) >= 2 else []
    return {vertex_to_flat(v, size) for v in dead}


def check_with_gnugo(folders: list[str], command: list[str], games: int = 200, progress: bool = True) -> dict:
    """On `games` judged games spread evenly over the folders' (every source): the share of
    games whose dead stones (by the stored ownership, `add_ownership`'s) are GNU Go's exactly,
    and the share of the stones on the board that both call alive or both dead."""
    from tqdm import tqdm
    owned_games = []
    for folder in folders:
        if has_ownership(folder):
            owned_games += [(folder, int(g)) for g in np.flatnonzero(np.load(os.path.join(folder, OWNED_FILE)))]
    if not owned_games:
        raise ValueError("no judged game: run the ownership first")
    picked = [owned_games[i] for i in np.unique(np.linspace(0, len(owned_games) - 1, games).astype(int))]
    shards: dict[str, tuple[Shard, np.ndarray]] = {}
    same_games = stones = agree = 0
    for folder, g in tqdm(picked, desc="gnugo", unit="game", disable=not progress):
        if folder not in shards:
            shards[folder] = (Shard(folder), np.load(os.path.join(folder, OWNERSHIP_FILE), mmap_mode="r"))
        s, table = shards[folder]
        lo, hi = int(s.games[g]), int(s.games[g + 1])
        moves, colours = s.moves[lo:hi], s.colours[lo:hi]
        board = replay(moves, colours, s.meta["size"])
        owner = np.asarray(table[g], np.float32) / 100
        ours, theirs = dead_stones(board, owner), gnugo_dead(moves, colours, command, s.meta["size"])
        on_board = int((board.to_array() != 0).sum())
        same_games += ours == theirs
        stones += on_board
        agree += on_board - len(ours ^ theirs)
    return {"games": len(picked), "same_dead_stones": same_games / len(picked),
            "stones_agreeing": agree / stones if stones else float("nan")}
