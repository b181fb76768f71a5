"""Batches of problems on several cores: `ordered_map` runs one function over a list of
inputs in worker processes and yields the results in the inputs' order, so that a batch's
output reads the same whatever the number of workers.

`golois solve --jobs N` and `bench/tsumego_bench.py --in-process --jobs N` use it: each worker
solves one problem at a time on its own core, so the answers are those of a one-core run (each
problem keeps its time limit), and a folder takes about 1/N of the time.  Workers are spawned
(a fresh interpreter each: no fork of a process that holds torch's threads), and each runs
`initializer(*initargs)` once, to load what every problem needs (the policy network).

Start reading at `ordered_map`; `oversubscribed` is the warning for more workers than cores.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor


def ordered_map(fn, items, jobs: int = 1, initializer=None, initargs=()):
    """Yields fn(item) for each of `items`, in their order.  jobs 1: here, one after the other
    (`initializer` runs here first).  jobs > 1: in that many spawned worker processes (fewer
    when there are fewer items), `fn` and `initializer` picklable (module-level functions); a
    result waits for the earlier ones.  An exception raised by fn is raised here at its item;
    a worker that dies (a crash in compiled code) raises
    concurrent.futures.process.BrokenProcessPool.  Leaving the loop early (an exception in the
    caller, a reader of the output gone) stops the workers at once."""
    items = list(items)
    if jobs <= 1 or len(items) <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            yield fn(item)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(items)),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer, initargs=initargs)
    finished = False
    try:
        futures = [pool.submit(fn, item) for item in items]
        for future in futures[:-1]:
            yield future.result()
        last = futures[-1].result()
        finished = True
    finally:
        if not finished:
            # the running problems would otherwise go on to their time limits
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(wait=finished, cancel_futures=True)
    # the pool is gone before the last result is handed over: a caller that takes exactly
    # len(items) results (next()) leaves no pool for the interpreter's exit to tear down
    # (it raced with concurrent.futures' own exit hook: "Exception ignored ... Bad file
    # descriptor" after bench/tsumego_bench.py's last line)
    yield last


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def oversubscribed(jobs: int, items: int, cores: int | None = None) -> str | None:
    """A warning when a batch of `items` would run more workers at once than there are
    cores: each problem keeps its time limit but gets a share of a core, so it searches fewer
    positions and its answers are weaker than a one-core run's.  None when it fits."""
    workers = min(jobs, items)
    cores = available_cores() if cores is None else cores
    if workers <= 1 or workers <= cores:
        return None
    return (f"{workers} workers on {cores} core{'s' if cores != 1 else ''}: each problem keeps its "
            f"time limit but shares a core, so it searches fewer positions than alone "
            f"(--jobs {cores} gives every worker a core)")
