"""How well the value head knows who is winning: the core of ``golois value``.

Start with :func:`evaluate_value`: it feeds batches of positions with their outcomes to a
:class:`golois.nn.model.Network` (optionally bagged over symmetries) and returns a
:class:`ValueReport`: per move-number bucket the share of positions whose winner the value
predicts and the mean squared error, and the calibration (predicted win probability against the
observed win rate, by tenth).  :func:`plot_calibration` draws the calibration as a PNG.

A batch is a dict: ``planes`` [B,C,H,W], ``outcome`` [B] (+1: the player to move won, -1: lost),
``move_number`` [B], and for a head that reads them ``black`` [B] (black to move) and ``komi`` [B];
with ``final_owner`` [B, n*n] (black's frame) and ``owned`` [B] the share of the decided points
whose final owner the head's ownership map predicts is measured too; or a pair (set name, dict) to
measure several sets in one pass.  The value v is in [-1, 1]; the win probability is (v + 1) / 2, and
the winner is predicted when v has the outcome's sign.  A head with an ownership map is also read
as a score (`map_score`: the map's sum plus the komi the mover receives, KataGo's score estimate),
and the share of winners whose sign the score predicts is reported beside the value's.

Calibration: each report keeps its values, so `fit_temperature` finds the temperature of least
log loss (golois.nn.model.temper), `ValueReport.tempered` reads the same positions at another,
and `ValueReport.calibration_noise` gives the worst gap a perfectly calibrated head would show on
them (the floor a measured gap is read against).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

#: move-number buckets, half-open [lo, hi); None: no upper bound.
BUCKETS: tuple[tuple[int, int | None], ...] = ((0, 50), (50, 100), (100, 150), (150, 200), (200, None))
BINS = 10


@dataclass
class Cell:
    """Sums over the positions of a bucket."""
    lo: int
    hi: int | None
    positions: int = 0
    predicted: int = 0
    squared_error: float = 0.0
    owner_points: int = 0             # decided points (|final owner| >= 0.5) of positions with an ownership
    owner_right: int = 0              # of those, the points whose owner the head's map has the sign of
    scored: int = 0                   # positions read as a score (`map_score`)
    score_predicted: int = 0          # of those, the positions whose winner the score's sign predicts

    @property
    def label(self) -> str:
        return f"{self.lo}+" if self.hi is None else f"{self.lo}-{self.hi - 1}"

    @property
    def accuracy(self) -> float:
        return self.predicted / self.positions if self.positions else float("nan")

    @property
    def mse(self) -> float:
        return self.squared_error / self.positions if self.positions else float("nan")

    @property
    def ownership(self) -> float:
        return self.owner_right / self.owner_points if self.owner_points else float("nan")

    @property
    def score_accuracy(self) -> float:
        return self.score_predicted / self.scored if self.scored else float("nan")

    def holds(self, move_number: np.ndarray) -> np.ndarray:
        """bool [B]: the positions whose move number falls in this cell's [lo, hi)."""
        return (move_number >= self.lo) & ((move_number < self.hi) if self.hi is not None else True)

    def add(self, v: np.ndarray, outcome: np.ndarray) -> None:
        self.positions += len(v)
        self.predicted += int((np.sign(v) == outcome).sum())
        self.squared_error += float(((v - outcome) ** 2).sum())


@dataclass
class ValueReport:
    """What `evaluate_value` measured."""
    buckets: list[Cell] = field(default_factory=lambda: [Cell(lo, hi) for lo, hi in BUCKETS])
    total: Cell = field(default_factory=lambda: Cell(0, None))
    bins: np.ndarray = field(default_factory=lambda: np.zeros((BINS, 3)))  # count, sum p, sum won
    seconds: float = 0.0              # in the network
    symmetries: int = 1
    temperature: float = 1.0          # the value was read at (golois.nn.model.temper)
    values: list = field(default_factory=list, repr=False)     # (v, outcome, move number) arrays as added

    def add(self, v: np.ndarray, outcome: np.ndarray, move_number: np.ndarray) -> None:
        v, outcome = np.asarray(v, np.float64), np.asarray(outcome, np.float64)
        self.values.append((v, outcome, np.asarray(move_number)))
        self.total.add(v, outcome)
        for cell in self.buckets:
            sel = cell.holds(move_number)
            cell.add(v[sel], outcome[sel])
        p = (v + 1) / 2
        b = np.clip((p * BINS).astype(int), 0, BINS - 1)
        np.add.at(self.bins, b, np.stack([np.ones_like(p), p, outcome > 0], axis=1))

    def add_ownership(self, predicted: np.ndarray, final: np.ndarray, move_number: np.ndarray) -> None:
        """Maps [B, n*n] (any one frame): the head's, and the judged final owners."""
        decided = np.abs(final) >= 0.5
        right = decided & (np.sign(predicted) == np.sign(final))
        for cell in [self.total, *self.buckets]:
            sel = cell.holds(move_number)
            cell.owner_points += int(decided[sel].sum())
            cell.owner_right += int(right[sel].sum())

    def add_score(self, score: np.ndarray, outcome: np.ndarray, move_number: np.ndarray) -> None:
        """The map's score for the mover [B] (`map_score`) and the outcomes."""
        right = np.sign(score) == np.asarray(outcome)
        for cell in [self.total, *self.buckets]:
            sel = cell.holds(move_number)
            cell.scored += int(sel.sum())
            cell.score_predicted += int(right[sel].sum())

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every value, outcome and move number added, in order."""
        if not self.values:
            return np.zeros(0), np.zeros(0), np.zeros(0, int)
        return tuple(np.concatenate(a) for a in zip(*self.values))

    def tempered(self, temperature: float) -> "ValueReport":
        """The report with the value read at `temperature` (golois.nn.model.temper) instead: the
        winners and the map's score and owners are the same, the error and calibration change."""
        from golois.nn.model import temper
        out = ValueReport(seconds=self.seconds, symmetries=self.symmetries,
                          temperature=self.temperature * temperature)
        v, outcome, move_number = self.arrays()
        if len(v):
            out.add(temper(v, temperature).astype(np.float64), outcome, move_number)
        for mine, theirs in zip([self.total, *self.buckets], [out.total, *out.buckets]):
            for name in ("owner_points", "owner_right", "scored", "score_predicted"):
                setattr(theirs, name, getattr(mine, name))
        return out

    def span(self, lo: int, hi: int) -> Cell:
        """One cell for moves lo..hi-1 made of whole buckets (e.g. 100, 200)."""
        out = Cell(lo, hi)
        for c in self.buckets:
            if c.lo >= lo and c.hi is not None and c.hi <= hi:
                out.positions += c.positions
                out.predicted += c.predicted
                out.squared_error += c.squared_error
                out.owner_points += c.owner_points
                out.owner_right += c.owner_right
                out.scored += c.scored
                out.score_predicted += c.score_predicted
        return out

    def calibration(self) -> list[dict]:
        """Per tenth of predicted win probability: positions, share, mean predicted, observed."""
        n = self.bins[:, 0].sum()
        rows = []
        for i, (count, sp, won) in enumerate(self.bins):
            rows.append({"bin": f"{i / BINS:.1f}-{(i + 1) / BINS:.1f}", "positions": int(count),
                         "share": count / n if n else 0.0,
                         "predicted": sp / count if count else float("nan"),
                         "observed": won / count if count else float("nan")})
        return rows

    def worst_calibration(self, min_share: float = 0.01) -> float:
        """The largest |predicted - observed| over the tenths that hold at least min_share."""
        gaps = [abs(r["predicted"] - r["observed"]) for r in self.calibration() if r["share"] >= min_share]
        return max(gaps) if gaps else float("nan")

    def calibration_noise(self, trials: int = 400, seed: int = 0, min_share: float = 0.01) -> tuple[float, float]:
        """The worst calibration gap a perfectly calibrated head would show on these positions
        (median and 90th percentile over `trials` draws of outcomes from the predicted win
        probabilities): the floor a measured gap is read against."""
        v = self.arrays()[0]
        if not len(v):
            return float("nan"), float("nan")
        p = (v + 1) / 2
        b = np.clip((p * BINS).astype(int), 0, BINS - 1)
        count = np.bincount(b, minlength=BINS)
        kept = count >= min_share * len(p)
        expected = np.bincount(b, weights=p, minlength=BINS)[kept]
        rng = np.random.default_rng(seed)
        gaps = []
        for _ in range(trials):
            won = np.bincount(b, weights=rng.random(len(p)) < p, minlength=BINS)
            gaps.append(np.max(np.abs(won[kept] - expected) / count[kept]))
        return float(np.median(gaps)), float(np.percentile(gaps, 90))

    def to_dict(self) -> dict:
        """Plain numbers (NaN, where a cell is empty, as None)."""
        return _no_nan(self._dict())

    def _dict(self) -> dict:
        mid = self.span(100, 200)
        return {"positions": self.total.positions, "accuracy": self.total.accuracy, "mse": self.total.mse,
                "accuracy_100_199": mid.accuracy, "worst_calibration": self.worst_calibration(),
                "symmetries": self.symmetries, "seconds": round(self.seconds, 1),
                "temperature": self.temperature, "log_loss": log_loss(*self.arrays()[:2]),
                "calibration_noise": dict(zip(("median", "p90"), self.calibration_noise())),
                "ownership": self.total.ownership, "ownership_points": self.total.owner_points,
                "score_accuracy": self.total.score_accuracy, "score_accuracy_100_199": mid.score_accuracy,
                "by_move_number": [{"label": c.label, "positions": c.positions, "accuracy": c.accuracy,
                                    "mse": c.mse, "ownership": c.ownership, "score_accuracy": c.score_accuracy}
                                   for c in self.buckets],
                "calibration": self.calibration()}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def summary(self) -> str:
        owned, scored = self.total.owner_points > 0, self.total.scored > 0
        lines = ["| moves | positions | winner predicted | mean squared error |"
                 + (" winner predicted by the map's score |" if scored else "")
                 + (" final owners predicted |" if owned else ""),
                 "|---|---|---|---|" + ("---|" if scored else "") + ("---|" if owned else "")]
        for c in [*self.buckets, self.span(100, 200), self.total]:
            label = "all" if c is self.total else c.label
            lines.append(f"| {label} | {c.positions} | {100 * c.accuracy:.1f}% | {c.mse:.3f} |"
                         + (f" {100 * c.score_accuracy:.1f}% |" if scored else "")
                         + (f" {100 * c.ownership:.1f}% of {c.owner_points} |" if owned else ""))
        lines += ["", "| predicted win probability | positions | share | mean predicted | observed |",
                  "|---|---|---|---|---|"]
        for r in self.calibration():
            lines.append(f"| {r['bin']} | {r['positions']} | {100 * r['share']:.1f}% | "
                         f"{100 * r['predicted']:.1f}% | {100 * r['observed']:.1f}% |")
        median, p90 = self.calibration_noise()
        lines.append(f"\nworst calibration gap (tenths holding at least 1%): "
                     f"{100 * self.worst_calibration():.1f} points (a perfectly calibrated head on these "
                     f"positions: {100 * median:.1f}, 90% under {100 * p90:.1f}); log loss "
                     f"{log_loss(*self.arrays()[:2]):.4f} nats at temperature {self.temperature:.3f}")
        return "\n".join(lines)


def _no_nan(x):
    if isinstance(x, float) and x != x:
        return None
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_no_nan(v) for v in x]
    return x


def log_loss(v: np.ndarray, outcome: np.ndarray) -> float:
    """The mean binary cross-entropy (nats) of the win probabilities (v + 1) / 2 against the
    outcomes (+1 won, -1 lost)."""
    p = np.clip((np.asarray(v, np.float64) + 1) / 2, 1e-7, 1 - 1e-7)
    won = np.asarray(outcome) > 0
    return float(-np.mean(np.where(won, np.log(p), np.log(1 - p)))) if len(p) else float("nan")


def fit_temperature(v: np.ndarray, outcome: np.ndarray, lo: float = 0.1, hi: float = 10.0) -> float:
    """The temperature in [lo, hi] at which the values `v` (read at temperature 1) have the
    least log loss against the outcomes (golden-section search on its logarithm; the loss is
    convex in 1 / temperature).  Guo et al.'s temperature scaling, on the value's tanh."""
    from golois.nn.model import temper
    if not len(v):
        raise ValueError("no value to fit a temperature on")
    v = np.asarray(v, np.float64)

    def loss(log_t: float) -> float:
        return log_loss(temper(v, float(np.exp(log_t))).astype(np.float64), outcome)

    a, b = np.log(lo), np.log(hi)
    g = (np.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = loss(c), loss(d)
    while b - a > 1e-4:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = loss(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = loss(d)
    return float(np.exp((a + b) / 2))


def map_score(owner: np.ndarray, black: np.ndarray, komi) -> np.ndarray:
    """The score [B] an ownership map `owner` [B, n*n] (the mover's frame) adds up to for the
    player to move: the points it owns less those it loses, plus the komi it receives."""
    black = np.asarray(black, bool)
    komi = np.broadcast_to(np.asarray(komi, np.float64), black.shape)
    return np.asarray(owner, np.float64).sum(axis=1) + np.where(black, -komi, komi)


def evaluate_value(network, batches: Iterable, symmetries: int = 1, progress=None):
    """The value of `network` (golois.nn.model.Network with a value head) on the batches: a
    ValueReport for dict batches, or {set: ValueReport} for (set, dict batch) pairs.  A head
    with an ownership map is run once in fp32 for the value, the map and its score when one
    symmetry in fp32 is asked for; otherwise the value is the bagged one."""
    if not getattr(network, "has_value", False):
        raise ValueError("the network has no value head")
    def fresh() -> ValueReport:
        return ValueReport(symmetries=symmetries, temperature=getattr(network, "value_temperature", 1.0))

    reports: dict[str, ValueReport] = {}
    tagged = None
    for item in batches:
        tagged = isinstance(item, tuple)
        name, b = item if tagged else ("", item)
        if name not in reports:
            reports[name] = fresh()
        report = reports[name]
        t = time.perf_counter()
        move_number = np.asarray(b["move_number"])
        owner = v = None
        if getattr(network, "has_ownership", False) and "black" in b and "komi" in b:
            v1, owner = network.value_ownership(b["planes"], b["black"], b["komi"])
            if symmetries == 1 and getattr(network, "precision", "fp32") == "fp32":
                v = v1
        if v is None:
            _, v = network.evaluate_symmetric(b["planes"], symmetries, b.get("black"), b.get("komi"))
        report.seconds += time.perf_counter() - t
        report.add(v, b["outcome"], move_number)
        if owner is not None:
            black = np.asarray(b["black"], bool)
            report.add_score(map_score(owner, black, b["komi"]), b["outcome"], move_number)
            owned = np.asarray(b.get("owned", np.zeros(len(v))), bool)
            if "final_owner" in b and owned.any():
                sel = np.flatnonzero(owned)
                report.add_ownership(owner[sel] * np.where(black[sel], 1.0, -1.0)[:, None],
                                     np.asarray(b["final_owner"])[sel], move_number[sel])
        if progress is not None:
            progress.update(len(v))
    if tagged:
        return reports
    return reports.get("") or fresh()


def plot_calibration(reports: dict[str, ValueReport], png_path: str, title: str = "") -> None:
    """Predicted win probability against the observed win rate (one line per report), with the
    share of positions in each tenth below."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 7))
    ax, hx = fig.subplots(2, 1, gridspec_kw={"height_ratios": [3, 1]}, sharex=True)
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect calibration")
    width = 1 / BINS / (len(reports) + 1)
    for i, (name, r) in enumerate(reports.items()):
        rows = [c for c in r.calibration() if c["positions"]]
        ax.plot([c["predicted"] for c in rows], [c["observed"] for c in rows], marker="o",
                label=f"{name} ({r.total.positions} positions)")
        hx.bar([k / BINS + (i + 0.5) * width for k in range(BINS)],
               [100 * c["share"] for c in r.calibration()], width=width, label=name)
    ax.set_ylabel("observed win rate of the player to move")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or "value calibration", fontsize=10)
    hx.set_xlabel("predicted win probability")
    hx.set_ylabel("positions (%)")
    hx.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
