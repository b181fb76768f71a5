"""`golois rollout train`: the rollout policy's weights by stochastic gradient descent on the
softmax log-likelihood of the moves of strong games (AlphaGo's rollout policy was trained the
same way on Tygem games).

The gradient steps are C (tactics.rollout.fit, the GIL released): `threads` threads share the
weights (Hogwild), each on its own games of a chunk.  The learning rate falls linearly from `lr`
to `lr_end` over the run.  A checkpoint (the weight file's format, with the run's position in
`meta`) is written every `checkpoint_minutes`; `resume` continues from it, and a killed run
loses at most that much.  Start with `train`.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import asdict, dataclass

import numpy as np

from tactics.rollout import VERSION, RolloutPolicy, fit

from golois.rollout import weights as wfile
from golois.rollout.records import Records, read_records


@dataclass
class RolloutTrainConfig:
    """The run's settings; `golois rollout train` reads its defaults here."""
    epochs: int = 2                 # passes over the training games
    lr: float = 0.1                 # learning rate at the start ...
    lr_end: float = 0.01            # ... falling linearly to this at the end
    threads: int = 2                # Hogwild threads
    games: int = 0                  # training games read (0: all)
    heldout_games: int = 1000       # held-out games measured after each epoch
    min_move: int = 0               # positions before this move number are not trained on
    chunk: int = 2000               # games between checkpoint checks
    checkpoint_minutes: float = 15.0
    seed: int = 0                   # the order of the games
    temperature: float = 0.5        # the rollouts' softmax temperature, written in the file: the
                                    # best winner prediction on held-out positions (docs/results.md)


def measure(policy: RolloutPolicy, records: Records, threads: int = 2) -> dict:
    """Top-1, top-5 and mean log-likelihood of the policy on every position of `records`."""
    return _parallel(policy, records, np.arange(len(records)), threads, 0.0, 0.0, 0)


def _parallel(policy, records: Records, games: np.ndarray, threads: int, lr0: float, lr1: float,
              min_move: int, progress=None) -> dict:
    """fit over `games` split between `threads` threads; the counts summed, with rates."""
    parts = np.array_split(games, max(1, threads))
    out = [None] * len(parts)
    lock = threading.Lock()

    def tick(k):
        if progress is not None:
            with lock:
                progress(k)

    def work(i):
        out[i] = fit(policy, records.points, records.colours, records.starts, parts[i], lr0, lr1, min_move, tick)

    if len(parts) == 1:
        work(0)
    else:
        pool = [threading.Thread(target=work, args=(i,)) for i in range(len(parts))]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    total = {k: sum(o[k] for o in out) for k in out[0]}
    n = max(total["positions"], 1)
    total.update(top1_rate=total["top1"] / n, top5_rate=total["top5"] / n, mean_loglik=total["loglik"] / n)
    return total


def train(train_sources: list[str], heldout_sources: list[str], out: str, cfg: RolloutTrainConfig,
          resume: str | None = None, log=print) -> dict:
    """Train, measure on the held-out games after each epoch, write `out` (and checkpoints
    beside it); returns the final meta."""
    from tqdm import tqdm
    with tqdm(desc="reading games", unit="game") as bar:
        records = read_records(train_sources, cfg.games, bar.update)
        heldout = read_records(heldout_sources, cfg.heldout_games, bar.update)
    if not len(records):
        raise ValueError(f"no games in {train_sources}")
    log(f"{len(records):,} training games ({records.moves:,} moves, {records.skipped} skipped), "
        f"{len(heldout):,} held-out games")
    policy, start_epoch, done = RolloutPolicy(), 0, 0
    checkpoint = out + ".checkpoint.npz"
    if resume:
        weights, meta = wfile.load(resume)
        policy = RolloutPolicy(weights)
        start_epoch, done = meta.get("epoch", 0), meta.get("games_done", 0)
        log(f"resumed from {resume}: epoch {start_epoch}, {done} games of it done")
    total_games = cfg.epochs * len(records)
    history, last_save, examples = [], time.monotonic(), 0
    for epoch in range(start_epoch, cfg.epochs):
        order = np.random.default_rng(cfg.seed + epoch).permutation(len(records))
        with tqdm(total=len(records), initial=done, desc=f"epoch {epoch + 1}/{cfg.epochs}", unit="game") as bar:
            for i in range(done, len(order), cfg.chunk):
                part = order[i:i + cfg.chunk]
                at = (epoch * len(records) + i) / total_games
                until = (epoch * len(records) + i + len(part)) / total_games
                lr0 = cfg.lr + (cfg.lr_end - cfg.lr) * at
                lr1 = cfg.lr + (cfg.lr_end - cfg.lr) * until
                r = _parallel(policy, records, part, cfg.threads, lr0, lr1, cfg.min_move, bar.update)
                examples += r["positions"]
                bar.set_postfix(top1=f"{r['top1_rate']:.3f}", lr=f"{lr1:.3g}")
                if time.monotonic() - last_save >= 60 * cfg.checkpoint_minutes:
                    wfile.save(policy.weights, checkpoint, {"epoch": epoch, "games_done": i + len(part),
                                                            "version": VERSION, "config": asdict(cfg)})
                    last_save = time.monotonic()
        done = 0
        h = measure(policy, heldout, cfg.threads)
        history.append({"epoch": epoch + 1, "heldout_top1": h["top1_rate"], "heldout_top5": h["top5_rate"],
                        "heldout_loglik": h["mean_loglik"]})
        log(f"epoch {epoch + 1}: held-out top-1 {h['top1_rate']:.2%}, top-5 {h['top5_rate']:.2%}, "
            f"log-likelihood {h['mean_loglik']:.3f} ({h['positions']:,} positions)")
    meta = {"version": VERSION, "train_sources": [os.path.basename(s) for s in train_sources],
            "heldout_sources": [os.path.basename(s) for s in heldout_sources], "games": len(records),
            "moves": records.moves, "examples_seen": examples, "history": history, "config": asdict(cfg),
            "epoch": cfg.epochs, "games_done": 0, "temperature": cfg.temperature}
    wfile.save(policy.weights, out, meta)
    if os.path.exists(checkpoint):
        os.remove(checkpoint)
    return meta
