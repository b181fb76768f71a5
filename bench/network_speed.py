"""The shipped networks at each precision on one CPU core: positions a second by batch size, the
genmove latency, and the agreement with fp32, side by side in one run with fp32 as the base.

    python bench/network_speed.py                                   # both networks, fp32 bf16 int8
    python bench/network_speed.py --models full --batches 8 16 --genmove 40
    python bench/network_speed.py --agreement 2000                  # top-1 against fp32 on sample positions
    python bench/network_speed.py --threads 1 2 --genmove 0         # one batch on 1 and 2 cores

Throughput: the network alone (golois.nn.model.Network.evaluate) on real positions of the
canonical 2015 sample where the KGS archive is found, random planes otherwise; the best of
`--repeats` timed calls after a warm-up.  genmove: bench/genmove_latency.py's self-play
measure (8 symmetries, tactics on) at each precision.  Agreement: on the first N sample
positions, each precision's top-1 against the played move, the share of positions whose top-1
differs from fp32's, and the largest change of the log-probability of fp32's top-1 move.
`--threads`: each throughput cell again with the batch on N threads (N cores; the process runs
on the first N cores); x fp32 is then against fp32 at the same thread count.
The physical floor: 4.33 GFLOP a position for the full network, 0.16 for the small one.
Start with `main`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from genmove_latency import add_arguments, measure, one_core, percentiles

from golois.player.ladder_adjust import log_softmax

GFLOP = {"full": 4.33, "small": 0.16}           # multiply-adds x 2 of one 19x19 position


def sample_planes(count: int):
    """(planes, moves) of the first `count` positions of the canonical sample, or None without the archive."""
    from golois.datasets.sample import iter_sample_planes
    planes, moves = [], []
    try:
        for x, y in iter_sample_planes("golois", batch=min(count, 512)):
            planes.append(x)
            moves.append(y)
            if sum(len(p) for p in planes) >= count:
                break
    except (FileNotFoundError, ValueError) as e:
        print(f"network_speed: no sample positions ({e}): random planes for the speeds", file=sys.stderr)
        return None
    return np.concatenate(planes)[:count], np.concatenate(moves)[:count]


def throughput(network, planes: np.ndarray, batch: int, repeats: int) -> float:
    """Positions a second of network.evaluate at this batch size (best of `repeats`)."""
    x = planes[:batch]
    network.evaluate(x)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        network.evaluate(x)
        best = min(best, time.perf_counter() - t)
    return batch / best


def agreement(network, base, planes: np.ndarray, moves: np.ndarray) -> tuple[float, float, float]:
    """(top-1 against the played moves, share whose top-1 differs from base's, max |d log p| of base's top-1)."""
    ours, theirs = [], []
    for i in range(0, len(planes), 64):
        ours.append(network.evaluate(planes[i:i + 64])[0])
        theirs.append(base.evaluate(planes[i:i + 64])[0])
    ours, theirs = log_softmax(np.concatenate(ours)), log_softmax(np.concatenate(theirs))
    best = theirs.argmax(1)
    rows = np.arange(len(best))
    return (float((ours.argmax(1) == moves).mean()), float((ours.argmax(1) != best).mean()),
            float(np.abs(ours[rows, best] - theirs[rows, best]).max()))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", nargs="+", default=["full", "small"])
    p.add_argument("--precisions", nargs="+", default=["fp32", "bf16", "int8"], choices=["fp32", "bf16", "int8"])
    p.add_argument("--batches", type=int, nargs="+", default=[1, 8, 16, 64])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--genmove", type=int, default=20, metavar="N", help="genmoves timed per cell (0: none)")
    p.add_argument("--agreement", type=int, default=0, metavar="N", help="sample positions compared with fp32 (0: none)")
    p.add_argument("--threads", type=int, nargs="+", default=[1], help="threads (cores) for one batch")
    args = p.parse_args(argv)
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    one_core()
    import torch
    from golois.nn.model import load_network
    precisions = ["fp32"] + [q for q in args.precisions if q != "fp32"]
    need = max([*args.batches, args.agreement])
    sample = sample_planes(need)
    planes = sample[0] if sample is not None else (np.random.default_rng(0).random((need, 15, 19, 19)) > 0.7).astype(np.float32)
    print("| network | precision (ran) | threads | batch | positions/s | x fp32 | GFLOP/s |")
    print("|---|---|---|---|---|---|---|")
    for model in args.models:
        nets = {q: load_network(model, 1, q) for q in precisions}
        for threads in args.threads:
            torch.set_num_threads(threads)
            if cores:
                os.sched_setaffinity(0, set(cores[:threads]))
            for batch in args.batches:
                base = None
                for q in precisions:
                    rate = throughput(nets[q], planes, batch, args.repeats)
                    base = base or rate
                    print(f"| {model} | {q} ({nets[q].precision}) | {threads} | {batch} | {rate:.1f} | {rate / base:.2f} | "
                          f"{rate * GFLOP.get(model, float('nan')):.0f} |", flush=True)
        torch.set_num_threads(1)
        if cores:
            os.sched_setaffinity(0, {cores[0]})
        if args.agreement and sample is not None:
            x, y = sample[0][:args.agreement], sample[1][:args.agreement]
            print("\n| network | precision | positions | top-1 | top-1 differs from fp32 | max |d log p| |")
            print("|---|---|---|---|---|---|")
            for q in precisions:
                top1, differs, dlogp = agreement(nets[q], nets["fp32"], x, y)
                print(f"| {model} | {nets[q].precision} | {len(x)} | {100 * top1:.2f}% | {100 * differs:.2f}% | {dlogp:.3f} |",
                      flush=True)
        print()
    if args.genmove:
        print("| network | precision | genmoves | median ms | 95th percentile ms | median x fp32 |")
        print("|---|---|---|---|---|---|")
        g = argparse.ArgumentParser()
        add_arguments(g)
        for model in args.models:
            base = None
            for q in precisions:
                player, times, _ = measure(g.parse_args(["--model", model, "--precision", q,
                                                         "--positions", str(args.genmove)]))
                med, p95 = percentiles(times)
                base = base or med
                print(f"| {model} | {q} | {len(times)} | {med:.1f} | {p95:.1f} | {med / base:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
