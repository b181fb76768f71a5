"""The learning curve of a training run as a PNG: test top-1 and top-5 against examples learned,
and, for a run with a value head, the value's mean squared error on the test and held-out
positions in a second panel, with the share of held-out winners it predicts at moves 100-199.  `plot_learning_curve` is the trainer's (it redraws it at every
evaluation, golois.nn.training); `plot_runs` puts several runs' logs on one PNG to compare them
(bench/compare_runs.py); `plot_value_steps` draws the value head's runs trained in steps (each
from the last's model) end to end (bench/value_steps.py)."""

from __future__ import annotations

import os
import textwrap
from typing import Sequence


def plot_learning_curve(history: Sequence[Sequence[float]], png_path: str, title: str = "") -> None:
    """Rows ``(examples, top1, top5[, test value MSE, held-out value MSE[, held-out winner]])``
    to ``png_path``."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    def finite(x):
        return x is not None and x == x

    has_value = any(len(h) > 3 and (finite(h[3]) or finite(h[4])) for h in history)
    fig = Figure(figsize=(7, 6.5 if has_value else 4))
    axes = fig.subplots(2 if has_value else 1, 1, sharex=True, squeeze=False)[:, 0]
    ax = axes[0]
    if history:
        xs = [h[0] for h in history]
        ax.plot(xs, [100 * h[1] for h in history], marker="o", label="test top-1")
        if len(history[0]) > 2:
            ax.plot(xs, [100 * h[2] for h in history], marker=".", linestyle="--", label="test top-5")
        ax.legend()
    ax.set_ylabel("accuracy (%)")
    ax.grid(alpha=0.3)
    ax.set_title(textwrap.fill(title or "learning curve", 70), fontsize=10)
    if has_value:
        vx = axes[1]
        for col, label in ((3, "test value MSE"), (4, "held-out value MSE")):
            pts = [(h[0], h[col]) for h in history if len(h) > col and finite(h[col])]
            if pts:
                vx.plot(*zip(*pts), marker="o", label=label)
        vx.set_ylabel("value mean squared error")
        vx.grid(alpha=0.3)
        vx.legend(loc="upper left")
        won = [(h[0], 100 * h[5]) for h in history if len(h) > 5 and finite(h[5])]
        if won:
            wx = vx.twinx()
            wx.plot(*zip(*won), marker="s", color="tab:green", label="held-out winner predicted, moves 100-199")
            wx.set_ylabel("winner predicted (%)")
            wx.legend(loc="upper right")
    axes[-1].set_xlabel("examples learned")
    fig.tight_layout()
    tmp = png_path + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    os.replace(tmp, png_path)


def log_paths(runs: Sequence[str]) -> list[str]:
    """The log.csv of each run (an out-dir, or a log.csv itself); FileNotFoundError naming those
    that have none."""
    paths = [os.path.join(r, "log.csv") if os.path.isdir(r) else r for r in runs]
    missing = [q for q in paths if not os.path.exists(q)]
    if missing:
        raise FileNotFoundError(f"no log at {', '.join(missing)}")
    return paths


def read_log(path: str) -> list[dict]:
    """A run's ``log.csv`` as rows of floats (None where a column is empty)."""
    import csv
    with open(path, newline="") as f:
        return [{k: float(v) if v not in ("", None) else None for k, v in row.items()}
                for row in csv.DictReader(f)]


def plot_runs(logs: dict, png_path: str, title: str = "", smooth: int = 5) -> None:
    """Runs ``{label: rows of read_log}`` on one PNG: test top-1 at each evaluation (top panel)
    and the training loss, a running mean over `smooth` log rows (bottom panel)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 6.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    for label, rows in logs.items():
        evals = [(r["examples"], 100 * r["test_top1"]) for r in rows if r.get("test_top1") is not None]
        if evals:
            top.plot(*zip(*evals), marker="o", label=label)
        losses = [(r["examples"], r["loss"]) for r in rows if r.get("loss") is not None]
        if losses:
            ys = [sum(y for _, y in losses[max(0, i - smooth + 1):i + 1]) / len(losses[max(0, i - smooth + 1):i + 1])
                  for i in range(len(losses))]
            bottom.plot([x for x, _ in losses], ys, label=label)
    top.set_ylabel("test top-1 (%)")
    top.set_title(textwrap.fill(title or "runs compared", 70), fontsize=10)
    bottom.set_ylabel(f"training loss (mean of {smooth} logs)")
    bottom.set_xlabel("examples learned")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    tmp = png_path + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    os.replace(tmp, png_path)


def chain_steps(steps: Sequence[Sequence[dict]]) -> list[dict]:
    """The evaluation rows of runs trained one after another (each step started from the last
    step's model), the examples counted from the first step's start: each step's rows are
    shifted by the examples of the steps before it (their last logged row)."""
    out, offset = [], 0.0
    for i, rows in enumerate(steps):
        for r in rows:
            if r.get("heldout_value_mse") is not None or r.get("heldout_winner_100_199") is not None:
                out.append({**r, "examples": offset + r["examples"], "step": i + 1})
        offset += max((r["examples"] for r in rows), default=0.0)
    return out


def plot_value_steps(rows: Sequence[dict], png_path: str, goals: dict | None = None, title: str = "") -> None:
    """`chain_steps` rows to a PNG: the held-out winner predicted at moves 100-199 (top panel,
    with `goals` {label: percent} as horizontal lines) and the held-out value MSE (bottom), one
    colour a step, against the examples of value training."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 6.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    for step in sorted({r["step"] for r in rows}):
        mine = [r for r in rows if r["step"] == step]
        win = [(r["examples"], 100 * r["heldout_winner_100_199"]) for r in mine if r.get("heldout_winner_100_199") is not None]
        mse = [(r["examples"], r["heldout_value_mse"]) for r in mine if r.get("heldout_value_mse") is not None]
        if win:
            top.plot(*zip(*win), marker="o", label=f"step {step}")
        if mse:
            bottom.plot(*zip(*mse), marker="o", label=f"step {step}")
    for label, y in (goals or {}).items():
        top.axhline(y, linestyle="--", color="grey", linewidth=1)
        top.annotate(label, (0, y), xycoords=("axes fraction", "data"), fontsize=8, va="bottom")
    top.set_ylabel("held-out winner, moves 100-199 (%)")
    top.set_title(textwrap.fill(title or "the value head, step by step", 70), fontsize=10)
    bottom.set_ylabel("held-out value MSE")
    bottom.set_xlabel("examples of value training")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right" if ax is top else "upper right")
    fig.tight_layout()
    tmp = png_path + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    os.replace(tmp, png_path)
