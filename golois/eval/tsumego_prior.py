"""A policy network as a tsumego guesser, and problems labelled by our solver to train one.

    PYTHONPATH=. python bench/tsumego_prior.py top1 ../shared/data/tsumego --network full small
    PYTHONPATH=. python bench/tsumego_prior.py crops ../shared/data/kgs/KGS-2006-19-10388-.tar.gz --count 3000 --out crops.jsonl
    PYTHONPATH=. python bench/tsumego_prior.py finetune crops.jsonl --network small --out tuned.pt

`top1`: for each network (full, small or a .pt file), how often its best move among the legal
points of the problem's inferred region (tactics.infer, the box of the stones grown by one) is
a RIGHT answer, per collection.  It measures a network's tsumego sense on its own, without the
solver: the prior of an unfinished search to live (`golois solve --network`) is such a network.

`crops`: problems made from the training years' KGS games (never the tsumego collections,
which are what we measure on).  A position 40-260 moves into a game without handicap, its
stones in one corner's k x k box only (k 6-10; the rest of the board emptied, so it looks
like a book problem: stones in one area of an empty board).  Our solver (tactics.problem.solve,
as `golois solve` runs it) solves it for both players with `--seconds` each; a crop is kept
when both searches prove a win for the same target with opposite goals: a critical position,
as a book's problem is, where the first move decides.  Each side's record (JSON lines): the
stones, the player to move, the goal, its proven first move and the winning first moves the
search proved, and the positions it took.  About 40 records a minute on two cores (one
process per core, each its own `--seed` and `--out`).

`finetune`: trains a golois network (golois.nn.model) further on such records: soft targets over
the proven winning moves among the legal ones (records with more than MAX_WINNING are left
out: nearly every move wins there), a random symmetry per batch, AdamW with a one-cycle
schedule; a tenth of the records is held out and its top-1 printed each epoch; the network
is saved after each epoch (fp16, golois.nn.model.save_model).  Then `top1` says whether it
guesses book answers better than the network it was tuned from.

Measured (docs/results.md): it does not at this scale (the full network tuned on 1,747 hard
crops: 134 of 668 against 137).  Start with `main`.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import random
import sys
import time

import numpy as np
from tqdm import tqdm


from golois.symmetry import apply as _symmetry

from golois import paths

MAX_WINNING = 8         # finetune: records whose search proved more winning first moves are left out


def corner_crop(board, corner: int, k: int):
    """A new board with the stones of `board` in the k x k box at `corner` (0 top-left, 1
    top-right, 2 bottom-left, 3 bottom-right), the rest empty."""
    n = board.size
    rows = slice(0, k) if corner in (0, 1) else slice(n - k, n)
    cols = slice(0, k) if corner in (0, 2) else slice(n - k, n)
    stones = np.zeros((n, n), np.int8)
    stones[rows, cols] = board.to_array()[rows, cols]
    return _board(stones)


def _board(stones):
    """A board with the stones of an array (Board.to_array's: 0 empty, 1 black, 2 white)."""
    from tactics.board import Board
    from tactics.coords import to_flat
    n = len(stones)
    board = Board(n)
    for r, c in zip(*np.nonzero(stones)):
        board.place(to_flat(int(r), int(c), n), int(stones[r, c]))
    return board


def label(board, seconds: float = 0.3, max_nodes: int = 10 ** 8) -> list:
    """The records of a critical position (both players win with the move, for the same target,
    with opposite goals), one per player, or [] (not critical, not inferable, or unproven)."""
    import tactics.problem as problem
    from tactics.board import BLACK, WHITE
    sols = []
    for mover in (BLACK, WHITE):
        try:
            sols.append(problem.solve(board, mover, time_limit=seconds, max_nodes=max_nodes))
        except ValueError:              # tactics.infer's ProblemError: not an open problem
            return []
        if sols[-1].result != "win":    # (most crops: the second search is not needed)
            return []
    a, b = sols
    if a.target != b.target or a.goal == b.goal:
        return []
    stones = board.to_array().tolist()
    return [{"stones": stones, "mover": s.to_move, "goal": s.goal, "move": s.move,
             "winning": [m for m in s.winning if m is not None], "nodes": s.nodes}
            for s in sols if s.move is not None]


def games(sources, limit: int | None = None) -> list:
    """The SGF texts of the readable games without handicap in `sources` (SGF files, or folders
    and archives as golois.datasets.sources `read_members` reads them: the KGS archives), at
    most `limit` per source; handicap as the dataset builder says it (HA > 0 or setup stones)."""
    from golois.datasets.sources import read_members
    out = []
    for src in sources:
        if os.path.isfile(src) and src.lower().endswith(".sgf"):
            with open(src, "rb") as f:
                members = [(src, f.read())]
        else:
            members = read_members(src)
        kept = (data for name, data in members if _without_handicap(data, name))
        out += itertools.islice(kept, limit)
    return out


def _without_handicap(data: bytes, name: str) -> bool:
    """Whether the SGF parses and has neither handicap nor setup stones."""
    from golois.sgf import SgfError, parse_game
    try:
        game = parse_game(data, name)
    except SgfError:
        return False
    return not (game.handicap or game.has_setup)


def make_crops(sources, count: int, out_path: str, seconds: float = 0.3, seed: int = 1,
               per_source: int = 4000, progress: bool = True) -> tuple:
    """Appends at least `count` records of critical corner crops to out_path (`crops`); returns
    (records written, crops tried)."""
    from golois.sgf import SgfError, parse_game
    rng = random.Random(seed)
    texts = games(sources, per_source)
    if not texts:
        raise SystemExit("no games without handicap in the sources")
    bar = tqdm(total=count, file=sys.stderr, disable=not progress)
    kept = tried = 0
    with open(out_path, "a") as out:
        while kept < count:
            try:
                game = parse_game(rng.choice(texts))
            except SgfError:
                continue
            if len(game.moves) < 60:
                continue
            crop = corner_crop(game.board_at(rng.randint(40, min(len(game.moves), 260))),
                               rng.randrange(4), rng.randint(6, 10))
            if int((crop.to_array() != 0).sum()) < 6:
                continue
            tried += 1
            for rec in label(crop, seconds):
                out.write(json.dumps(rec) + "\n")
                kept += 1
                bar.update(1)
            out.flush()
    bar.close()
    return kept, tried


def top1(prior, root) -> dict:
    """{collection: (right, problems)}: the prior's best legal move in the inferred region
    against the RIGHT answers, for the problems of root (a folder of collections or one)."""
    from golois.tsumego.problem_sgf import collection_folders, load_problem, problem_names, right_answers
    from tactics.coords import vertex_to_flat
    from tactics.infer import ProblemError, infer
    tally = collections.OrderedDict()
    for folder in collection_folders(root):
        right = count = 0
        for path in problem_names([folder]):
            board, mover = load_problem(path)
            try:
                region = infer(board)[2]
            except ProblemError:
                continue
            legal = np.asarray(board.legal_mask(mover), bool).reshape(-1)
            moves = [p for p in region if legal[p]]
            if not moves:
                continue
            scores = prior(board, mover)
            rights = {vertex_to_flat(v, board.size) for v in right_answers(path)}
            count += 1
            right += max(moves, key=lambda p: scores[p]) in rights
        tally[os.path.basename(folder.rstrip("/"))] = (right, count)
    return tally


def examples(records, feature_set) -> tuple:
    """(features [B,C,n,n] float32, soft targets [B,n,n], legal masks [B,n,n]) of the records
    with at most MAX_WINNING legal winning moves, from golois.datasets.features `encode`."""
    from golois.datasets.features import encode
    xs, ys, ms = [], [], []
    for rec in records:
        board = _board(np.asarray(rec["stones"]))
        size = board.size
        legal = np.asarray(board.legal_mask(rec["mover"]), bool).reshape(size, size)
        win = {m for m in set(rec["winning"]) | {rec["move"]} if isinstance(m, int) and legal.reshape(-1)[m]}
        if not win or len(win) > MAX_WINNING:
            continue
        target = np.zeros((size, size), np.float32)
        target.reshape(-1)[sorted(win)] = 1 / len(win)
        board.to_move = rec["mover"]
        xs.append(np.asarray(encode(board, feature_set), np.float32))
        ys.append(target)
        ms.append(legal)
    return np.array(xs), np.array(ys), np.array(ms)


def finetune(records, model: str, out: str, epochs: int = 8, lr: float = 1e-3, batch: int = 32,
             seed: int = 0, log=sys.stdout) -> float:
    """Trains the network `model` further on the records (`finetune`), saves it to `out`;
    returns the held-out top-1."""
    import torch
    import torch.nn.functional as F
    from golois.nn.registry import resolve_model
    from golois.nn.model import load_model, save_model
    network = load_model(resolve_model(model))
    x, y, m = examples(records, network.feature_set)
    if len(x) < 2:
        raise SystemExit(f"{len(x)} usable records: too few to train")
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    held, train = order[:max(1, len(x) // 10)], order[max(1, len(x) // 10):]
    net = network.model
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    steps = epochs * -(-len(train) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=max(1, steps), pct_start=0.1)

    def logits(idx, k=0):
        out = net.policy(torch.from_numpy(_symmetry(x[idx], k)))
        return out.masked_fill(~torch.from_numpy(_symmetry(m[idx], k)).flatten(1), -1e9)

    def held_top1():
        net.eval()
        with torch.no_grad():
            best = logits(held).argmax(1).numpy()
        net.train()
        return float((y[held].reshape(len(held), -1)[np.arange(len(held)), best] > 0).mean())

    print(f"{len(train)} records to train on, {len(held)} held out; top-1 before {held_top1():.3f}", file=log)
    net.train()
    score = 0.0
    for epoch in range(epochs):
        t0, total = time.monotonic(), 0.0
        for i in range(0, len(train), batch):
            idx, k = train[i:i + batch], int(rng.integers(8))
            target = torch.from_numpy(_symmetry(y[idx], k)).flatten(1)
            loss = -(target * F.log_softmax(logits(idx, k), 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        score = held_top1()
        print(f"epoch {epoch}: loss {total / len(train):.3f}, held-out top-1 {score:.3f}, "
              f"{time.monotonic() - t0:.0f} s", file=log)
        save_model(out, net, dict(network.meta, trained_on=f"tsumego crops ({len(train)})"), fp16=True)
    return score


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("top1", help="a network's best move in the region against the RIGHT answers")
    t.add_argument("root", nargs="?", default=paths.TSUMEGO)
    t.add_argument("--network", nargs="+", default=["full"], help="full, small or .pt files")
    c = sub.add_parser("crops", help="critical corner crops of KGS games, labelled by our solver")
    c.add_argument("sources", nargs="+", help="SGF files, folders or .tar.gz archives (training years)")
    c.add_argument("--count", type=int, default=1000, help="records to write (two per crop kept)")
    c.add_argument("--out", default="crops.jsonl", help="JSON lines, appended to")
    c.add_argument("--seconds", type=float, default=0.3, help="each side's search")
    c.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("finetune", help="train a network further on crop records")
    f.add_argument("records", nargs="+", help="JSON lines written by crops")
    f.add_argument("--network", default="small", help="full, small or a .pt file")
    f.add_argument("--out", required=True, help="the trained network (.pt)")
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--min-nodes", type=int, default=0,
                   help="leave out records whose search took fewer positions (easy crops)")
    f.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    args = p.parse_args(argv)
    if args.command == "top1":
        from golois.tsumego.cli import network_prior
        for name in args.network:
            prior = network_prior(name)
            if prior is None:
                return 1
            tally = top1(prior, args.root)
            cells = "  ".join(f"{k} {r}/{n}" for k, (r, n) in tally.items())
            print(f"{name}: {cells}  total {sum(r for r, _ in tally.values())}/{sum(n for _, n in tally.values())}")
        return 0
    if args.command == "crops":
        kept, tried = make_crops(args.sources, args.count, args.out, args.seconds, args.seed)
        print(f"{kept} records from {tried} crops -> {args.out}")
        return 0
    import torch
    torch.set_num_threads(args.threads)
    records = [json.loads(line) for path in args.records for line in open(path) if line.strip()]
    records = [r for r in records if r.get("nodes", 0) >= args.min_nodes]
    finetune(records, args.network, args.out, args.epochs, args.lr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
