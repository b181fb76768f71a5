"""`golois solve`: life-and-death (and ladder) problems from the command line.

    golois solve FILE.sgf|DIR [...] [--time-limit S] [--json] [--sgf-out DIR] [--network MODEL|none]
                 [--target VERTEX] [--move N|end] [--to-play black|white] [--region V1:V2]
                 [--jobs N] [--show-frame]
    golois solve --ladder VERTEX FILE.sgf [...] [--json] [--sgf-out DIR]

Each SGF's setup position (the setup stones of the main line before its first move: the root's,
or a setup node's below it; the moves are taken as the answer, never played: a malformed one is
no error) is solved for the player to move (PL, else the side to move; `--to-play`) with
tactics.problem.solve, which infers the group at stake and the goal (see its docstring).
`--target VERTEX` names the group instead, for positions the inference refuses (stones in
several areas, whole-board positions): it is solved as GTP's owl_attack / owl_defend are, in
the group's region, but with every move searched. `--move N` takes a game's position before
move N (`end`: after the last move). `--region V1:V2` limits the moves to a rectangle (no frame
is added; one that holds no stone of the group at stake nor a liberty of it is an error). A
file of several games (an SGF collection: problem books often come in one file) is one problem
per game, named `FILE#K` (K from 1) in the output, its accuracy counted per file (a malformed
game is an error record of its own, after the games before it; sgfmill reads none after it);
`FILE#K` as an input solves that game alone; `--limit N` takes at most N problems of each
folder or file.  golois.tsumego.problem_sgf reads the problems and writes the answers back.

Default output: a diagram with the principal variation numbered (1 is the answer), the result,
the first move, the principal variation, the refuted first moves with the opponent's answer,
nodes and time; with `--show-frame`, also the board the answer was searched on (`frame_diagram`:
the inferred frame's stones in lower case, the looser frame's when the recheck answered, and
'-' where no move is searched; JSON: "frame" and "region", lists of vertices), to see what the
inference assumed (tactics.infer names its failure modes). `--json`: one object per input per
line ({"file", "to_play", "move", "result", "status", "goal", "pv", "winning", "refuted",
"nodes", "seconds", "right"}, and "replies" for a proven answer: the opponent's replies the
proof covers -> the answer to each; or {"file", "error"}); a file that fails is reported and
the batch goes on (with `--ladder` too: a missing file, a malformed SGF, a vertex off the board
or on an empty point). When the SGF has root
children (or children of a setup node below the root) commented RIGHT, each answer is marked
right or wrong, and the accuracy per folder (per file for a collection) is
printed (to stderr with --json). `--sgf-out DIR` writes the problem (its setup in the root, PL
the player solved for) with the solver's answer as variations: the solution tree commented
RIGHT (a proven answer, the opponent's replies and the answers to them: tactics.problem
Solution.tree), else the PV (WRONG when the goal fails, BEST TRY when the search did not
finish), the other proven first moves RIGHT, and the first moves proven to fail WRONG, each
with its refutation's tree (a collection's game K goes to FILE-K.sgf; a name an earlier problem
of the run took gets -2, -3, ...: `sgf_out_names`; the answer says where, "sgf" or an "sgf:"
line; a file that cannot be written keeps its answer, with "sgf_error"). `--jobs N` solves N
problems at once in worker processes (golois.tsumego.batch), the answers in the inputs' order; each
problem keeps its time limit, so give each worker a core of its own. Exit status: 0, or 1 when
every file failed or a worker process died (the files it left unsolved are named), or 2 before
any search for a usage error (no .sgf file in the inputs, an --sgf-out folder that cannot be
made, --ladder with an option it does not take).

`--ladder VERTEX`: whether the string at VERTEX is captured in a ladder (tactics.ladder, its
opponent moving first), by which move, with the sequence, drawn on the board (`ladder_diagram`)
and, with `--sgf-out`, written as the main line (PL the attacker's; an escape: the problem, its
root commented). It takes none of --target, --region, --to-play (a usage error).

An unfinished search to live answers the unrefuted first move after which the defender's stones
survive best in random playouts in the region, with the shipped policy network's weighted
scores added (`network_prior`; `--network none`: the playouts alone).  The network is asked
only then, in the time limit (the search stops about 0.85 s early for it; under a 3.4 s
limit the playouts guess alone), so a problem the search proves does not wait for it.  It is
loaded (3-4 s, not counted in any problem's time) when the first guess needs it, never for
kills or proven lives (`LazyPrior`).

Start with `run`; golois.tsumego.problem_sgf holds the SGF side (`load_problem`, `write_sgf`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from concurrent.futures.process import BrokenProcessPool

from golois.nn.registry import PRECISIONS
from golois.tsumego.batch import ordered_map, oversubscribed
from golois.tsumego.problem_sgf import (accuracy_group, load_problem, problem_names, right_answers, sgf_out_names,
                                write_ladder_sgf, write_sgf)
from tactics.board import BLACK, WHITE
from tactics.coords import format_vertex, vertex_to_flat

NAMES = {BLACK: "black", WHITE: "white"}
# LazyPrior's cost of one call on 19x19 before its network is loaded (seconds, one core): the
# full network over 8 symmetries measured 0.53-0.73 s a call, and TimedPrior's own estimate
# once loaded (its 9x9 calls, about 1.2 times a call) is 0.69 s on an idle machine and 0.84 s
# with the other core busy; the small one 0.03 s.  A .pt file is taken as the full network
UNLOADED_COST = {"full": 0.85, "small": 0.1}


def _seconds(text: str) -> float:
    """argparse type: a positive number of seconds (inf: no time limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:                       # (nan too)
        raise argparse.ArgumentTypeError(f"{text!r}: the time limit must be positive")
    return value


def _count(text: str) -> int:
    """argparse type: a positive whole number."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("solve", help="solve life-and-death and ladder problems (SGF)")
    p.add_argument("inputs", nargs="+", help="SGF files or folders of SGF files")
    p.add_argument("--time-limit", type=_seconds, default=10.0, help="seconds per problem (10)")
    p.add_argument("--max-nodes", type=_count, default=10 ** 8,
                   help="positions per problem (10^8; the searches check it between expansions, so "
                        "the count may pass it by one position's children, a few dozen)")
    p.add_argument("--json", action="store_true", help="one JSON object per input per line")
    p.add_argument("--sgf-out", metavar="DIR", help="write solution trees as SGF here")
    p.add_argument("--ladder", metavar="VERTEX",
                   help="ladder problem: is the string at VERTEX captured? (not with --target, --region, --to-play)")
    p.add_argument("--target", metavar="VERTEX",
                   help="a stone of the group at stake (for positions with stones in several areas, "
                        "or whole-board positions): solved as GTP's owl_attack / owl_defend, in the group's region")
    p.add_argument("--to-play", choices=["black", "white"], help="the player to move (default: PL, else the side to move)")
    p.add_argument("--move", metavar="N|end",
                   help="a game's position before move N (as GTP's loadsgf FILE N), or after its last "
                        "move; default: the setup stones (a problem's moves are its answer)")
    p.add_argument("--region", metavar="V1:V2",
                   help="the rectangle between two corner vertices (e.g. N1:T7): moves only there, no frame; "
                        "it must hold a stone or a liberty of the group at stake")
    p.add_argument("--limit", type=_count, default=None,
                   help="at most this many problems of each folder or file")
    p.add_argument("--jobs", type=_count, default=1, metavar="N",
                   help="solve N problems at once, one per worker process (give each its own core: "
                        "every problem keeps its time limit); answers in the inputs' order (1)")
    p.add_argument("--network", default="full", metavar="MODEL",
                   help="policy network whose scores, with playouts, choose the unrefuted move an unfinished search to live answers: "
                        "full, small (shipped), a .pt file, or none (default full)")
    p.add_argument("--precision", choices=PRECISIONS, default="fp32",
                   help="the network's arithmetic (golois.nn.precision): fp32 (the default: the guess's "
                        "weight was measured with it), bf16, int8 or auto")
    p.add_argument("--show-frame", action="store_true",
                   help="also draw the board the answer was searched on: the inferred frame's stones "
                        "in lower case, '-' where no move is searched (JSON: \"frame\" and \"region\")")
    p.add_argument("--no-recheck", action="store_true",
                   help="answer as soon as the inferred frame's search ends: no recheck of a kill or "
                        "of a fail to live in a looser frame with the time left (faster, less often right)")
    p.set_defaults(func=run)


def diagram(board, sol) -> str:
    """The board near the region with the principal variation numbered as in a problem book:
    1 is the answer, the player to move's moves odd, in LADDER_MARKS' order (1-9, then a-z);
    a move on a point already marked, or a pass, is said below it ("(7 at 3)").  Without a PV
    that starts with the answer, the answer alone is marked '#'."""
    n = board.size
    marks, notes = {}, []
    pv = sol.pv if sol.pv and sol.pv[0] == sol.move else []
    for mark, m in zip(LADDER_MARKS, pv):
        if m is None:
            notes.append(f"{mark} pass")
        elif m in marks:
            notes.append(f"{mark} at {marks[m]}")
        else:
            marks[m] = mark
    if not pv and sol.move is not None:
        marks = {sol.move: "#"}
    text = _window(board, sol.region or [0, n * n - 1], 1, marks)
    return text + ("\n    (" + ", ".join(notes) + ")" if notes else "")


def frame_diagram(board, sol) -> str:
    """The board the answer was searched on, near the region: the frame's stones (Solution.frame,
    the attacker's wall) in lower case, '-' on the empty points outside the region (never
    played), then a line that says so (`--show-frame`)."""
    n = board.size
    region = set(sol.region)
    wall = "xo"[sol.attacker - 1]
    marks = {p: wall for p in sol.frame}
    for p in range(n * n):
        if p not in region and p not in marks and board.get(p) == 0:
            marks[p] = "-"
    text = _window(board, sol.region or [0, n * n - 1], 1, marks)
    what = (f"{wall}: the frame's {NAMES[sol.attacker]} stones ({len(sol.frame)}), " if sol.frame
            else "no frame, ")
    return f"{text}\n    ({what}-: no move searched; {len(region)} points searched)"


def _window(board, points, margin, marks) -> str:
    """The board's rows and columns within `margin` of the flat `points`, with GTP coordinates
    and `marks` (flat point -> character) drawn over the stones."""
    from tactics.coords import GTP_COLUMNS
    n = board.size
    rows, cols = [p // n for p in points], [p % n for p in points]
    r0, r1 = max(min(rows) - margin, 0), min(max(rows) + margin, n - 1)
    c0, c1 = max(min(cols) - margin, 0), min(max(cols) + margin, n - 1)
    lines = ["    " + " ".join(GTP_COLUMNS[c0:c1 + 1])]
    for r in range(r0, r1 + 1):
        lines.append(f"{n - r:3d} " + " ".join(marks.get(r * n + c, ".XO"[board.get((r, c))])
                                                for c in range(c0, c1 + 1)))
    return "\n".join(lines)


LADDER_MARKS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"


def ladder_diagram(board, stone, seq) -> str:
    """The board around the string at `stone` (flat) and the ladder's moves `seq` (flat, the
    attacker's first), numbered in LADDER_MARKS' order (a point played twice keeps its first
    mark; moves past the marks are not shown)."""
    marks = {}
    for i, m in enumerate(seq[:len(LADDER_MARKS)]):
        if m is not None:
            marks.setdefault(m, LADDER_MARKS[i])
    return _window(board, list(board.string(stone)) + list(marks), 2, marks)


def network_prior(model: str = "full", symmetries: int = 8, threads: int = 1, quiet: bool = False,
                  lazy: bool = False, precision: str = "fp32"):
    """A prior for tactics.problem.solve: (board, mover) -> the policy network's scores (mean
    log-probability over `symmetries`) per flat point, for `mover` to play on the unframed
    board: the player's policy (golois.player.player.load_network_policy), run on `threads` CPU
    threads (one core, like the solver); None, said on stderr unless `quiet`, when torch or
    the weights cannot be loaded (the solver then guesses without it).  One evaluation: about
    0.5 s on one core for the full network; the prior says so (`TimedPrior.cost`), so that the
    solver asks it only when an unfinished search to live needs it, and within the time limit
    (tactics.guess.Scores).  lazy: a `LazyPrior`, which loads all that on first use.
    precision: golois.nn.precision's (fp32 by default: PRIOR_WEIGHT was measured with it)."""
    if model in (None, "none"):
        return None
    if lazy:
        return LazyPrior(model, symmetries, threads, quiet, precision)
    try:
        from golois.player.player import load_network_policy
        return TimedPrior(load_network_policy(model, symmetries, threads, precision))
    except Exception as e:  # noqa: BLE001 -- no network means: solve without the prior, loudly
        if not quiet:
            _say_no_prior(f"{type(e).__name__}: {e}")
        return None


def _say_no_prior(reason: str) -> None:
    """Says on stderr that the unfinished searches to live will guess without the network, and why."""
    print(f"golois solve: no policy prior ({reason})", file=sys.stderr)


def network_missing(model) -> str | None:
    """Why `network_prior(model)` cannot load, as far as a look without loading it tells (torch
    is not installed, or the weights file does not exist), or None."""
    import importlib.util
    from golois.nn.registry import resolve_model
    if importlib.util.find_spec("torch") is None:
        return "torch is not installed"
    path = resolve_model(model)
    return None if path.is_file() else f"no weights file {str(path)!r}"


class LazyPrior:
    """`network_prior(model)`, loaded when first called.  Loading torch and the weights takes
    3-4 s, and only an unfinished search to live calls the prior (kills and proven lives never
    do), so `golois solve` does not wait for it unless a guess needs it.  Before the load,
    `cost` is an estimate (UNLOADED_COST: the search to live keeps that much time for the
    call), `inf` when the network is missing (`network_missing`: the playouts guess alone);
    after, TimedPrior's measure.  `load_seconds`: the time the load took, which
    tactics.problem leaves out of the problem's time (`tactics.guess.Scores.late`)."""

    def __init__(self, model, symmetries: int = 8, threads: int = 1, quiet: bool = False, precision: str = "fp32"):
        self.model, self.symmetries, self.threads, self.quiet = model, symmetries, threads, quiet
        self.precision = precision
        self.loaded, self.prior, self.load_seconds, self.missing = False, None, 0.0, None

    def load(self):
        """The TimedPrior, or None when it does not load (said once on stderr unless quiet)."""
        if not self.loaded:
            self.loaded = True
            t = time.monotonic()
            self.prior = network_prior(self.model, self.symmetries, self.threads, self.quiet,
                                       precision=self.precision)
            self.load_seconds = time.monotonic() - t
        return self.prior

    def cost(self, size: int) -> float:
        if self.loaded:
            return float("inf") if self.prior is None else self.prior.cost(size)
        if self.missing is None:
            self.missing = network_missing(self.model) or ""
            if self.missing and not self.quiet:
                _say_no_prior(self.missing)
        if self.missing:
            return float("inf")
        return UNLOADED_COST.get(str(self.model), UNLOADED_COST["full"]) * (size / 19) ** 2

    def __call__(self, board, mover):
        prior = self.load()
        return None if prior is None else prior(board, mover)


class TimedPrior:
    """A prior (board, mover) -> scores that says what a call costs: `cost(size)`, in seconds
    on a board of that size, from its last call's time per point (the network is fully
    convolutional).  Made with two calls on a 9x9 board (about 0.3 s; torch's first call is
    the slowest), whose estimate for 19x19 is about 1.2 times the real call's."""

    def __init__(self, policy, probe_size: int = 9):
        from tactics.board import Board
        self.policy, self.per_point = policy, 0.0
        for _ in range(2):
            self(Board(probe_size), BLACK)

    def cost(self, size: int) -> float:
        return self.per_point * size * size

    def __call__(self, board, mover):
        t0 = time.perf_counter()
        scores = self.policy(board, mover)
        self.per_point = (time.perf_counter() - t0) / (board.size * board.size)
        return scores


def parse_region(text: str, size: int) -> list:
    """'V1:V2' (two GTP vertices, opposite corners) -> the flat points of that rectangle.
    Raises ValueError (CoordinateError) for anything else."""
    from tactics.coords import CoordinateError, parse_vertex
    corners = text.split(":")
    if len(corners) != 2:
        raise CoordinateError(f"region {text!r}: expected two corner vertices, as N1:T7")
    (r0, c0), (r1, c1) = [parse_vertex(v, size) or (None, None) for v in corners]
    if r0 is None or r1 is None:
        raise CoordinateError(f"region {text!r}: a corner is a pass")
    return [r * size + c for r in range(min(r0, r1), max(r0, r1) + 1)
            for c in range(min(c0, c1), max(c0, c1) + 1)]


def _check_region(board, region, target, text) -> None:
    """Raises ProblemError when the --region rectangle `region` (flat points; `text` as given)
    holds no stone of the group at stake (the given target's linked group, else the inferred
    problem's: tactics.infer) and no liberty of it: no move there could touch the group, and
    the search would answer about nothing."""
    from tactics.infer import ProblemError, infer, linked_group
    if target is None:
        _, target, _, _, group, _ = infer(board)
    else:
        group = linked_group(board, target)
    stones = set(group) | set(board.string(target))
    touched = stones | {q for p in stones for q in board.liberty_points(p)}
    if not touched & set(region):
        raise ProblemError(f"the region {text} holds no stone of the group at "
                           f"{format_vertex(divmod(target, board.size), board.size)} nor a liberty of it")


def _solve_board(board, mover, args, prior):
    """tactics.problem.solve as the options ask: inferred (default), in a given region, or for
    a given target (the owl's search and limits, tactics.owl.owl_solve, with every
    defender move searched, so that its kills are proofs too)."""
    from tactics.infer import TargetNeeded
    from tactics.problem import LOOSE_FAR, ProblemError, SolveSettings, solve
    region = parse_region(args.region, board.size) if args.region else None
    target = None
    if args.target:
        target = vertex_to_flat(args.target, board.size)
        if target is None or board.get(target) == 0:
            raise ProblemError(f"no stone at the target {args.target}")
    if region is not None:
        try:
            _check_region(board, region, target, args.region)
        except TargetNeeded as e:
            raise ProblemError(f"{e} (--target VERTEX)") from None
    if target is not None and region is None:
        from tactics.owl import SolverConfig, owl_solve
        cfg = SolverConfig(time_limit=args.time_limit, max_nodes=args.max_nodes, width=0, prefer=0)
        return owl_solve(board, mover, target, cfg, prior, live_guess=True, tree=True)
    try:
        # a given region is the whole problem: no frame (tactics.problem.prepare would grow
        # the inferred problem's wall into it, and take room the region gives the defender)
        settings = SolveSettings(time_limit=args.time_limit, max_nodes=args.max_nodes,
                                 loose=0 if args.no_recheck else LOOSE_FAR, tree=True,
                                 frame=region is None)
        return solve(board, mover, target=target, region=region, settings=settings, prior=prior)
    except TargetNeeded as e:
        raise ProblemError(f"{e} (--target VERTEX)") from None


def solve_file(path, args, prior=None, sgf_name=None):
    """The JSON record of one file (raises on errors); sgf_name: its --sgf-out file's name
    (`sgf_out_names`; default: the input's)."""
    board, mover = load_problem(path, args.move)
    if args.to_play:
        mover = BLACK if args.to_play == "black" else WHITE
        board.to_move = mover
    sol = _solve_board(board, mover, args, prior)
    rec = {
        "file": path, "to_play": NAMES[mover], "move": sol.vertex(), "result": sol.result,
        "status": sol.status, "goal": sol.goal, "target": sol.vertex(sol.target),
        "pv": [sol.vertex(m) for m in sol.pv],
        "winning": [sol.vertex(m) for m in sol.winning],
        "refuted": [sol.vertex(m) for m in sol.refuted], "nodes": sol.nodes,
        "seconds": round(sol.seconds, 4),
    }
    if sol.tree:
        # the opponent's replies to the answer that the proof covers, and our answer to each
        # (null: the reply loses at once, as the knowledge sees it)
        rec["replies"] = {sol.vertex(m): sol.vertex(sub[0][0]) if sub else None
                          for m, sub in sol.tree[0][1]}
    if getattr(args, "show_frame", False):
        rec["frame"] = [sol.vertex(p) for p in sol.frame]
        rec["region"] = [sol.vertex(p) for p in sorted(sol.region)]
    # (none when --to-play gives the other colour the move, or --move plays the answer)
    right = right_answers(path, mover) if args.move is None else []
    if right:
        rec["right"] = rec["move"] in right
        rec["answers"] = right
    if args.sgf_out:
        _write_out(rec, write_sgf, path, args.sgf_out, board, sol, position=args.move is not None,
                   name=sgf_name)
    return rec, board, sol


def _write_out(rec, write, *a, **kw) -> None:
    """rec["sgf"] = write(*a, **kw); a failure to write (a full disk) loses the file, not the
    answer: rec["sgf_error"] says why, and stderr too."""
    try:
        rec["sgf"] = write(*a, **kw)
    except OSError as e:
        rec["sgf_error"] = f"{type(e).__name__}: {e}"
        print(f"golois solve: {rec['file']}: no SGF written: {rec['sgf_error']}", file=sys.stderr)


def _inputs(args) -> list | None:
    """The files to solve, after checking what must hold before any is solved: at least one
    file, and a writable --sgf-out folder (made if missing).  None, said on stderr, if not."""
    files = list(problem_names(args.inputs, args.limit))
    if not files:
        print(f"golois solve: no .sgf files in {' '.join(args.inputs)}", file=sys.stderr)
        return None
    if args.sgf_out:
        try:
            os.makedirs(args.sgf_out, exist_ok=True)
            if not os.access(args.sgf_out, os.W_OK | os.X_OK):
                raise PermissionError("not writable")
        except OSError as e:
            print(f"golois solve: --sgf-out {args.sgf_out}: {e}", file=sys.stderr)
            return None
    return files


def _out_names(args, files) -> list:
    """Each problem's --sgf-out file name (`sgf_out_names`), or None for every one without it."""
    return sgf_out_names(files) if args.sgf_out else [None] * len(files)


def solve_ladder(args) -> int:
    """`--ladder VERTEX FILE`: is the string captured in a ladder (tactics.ladder), by which move,
    with the sequence."""
    from tactics.ladder import RESULT_NAMES, ladder_capture
    from tactics.problem import ProblemError
    files = _inputs(args)
    if files is None:
        return 2
    errors = 0
    names = _out_names(args, files)
    for path, sgf_name in zip(files, names):
        try:
            board, _ = load_problem(path, args.move)
            stone = vertex_to_flat(args.ladder, board.size)      # CoordinateError, as --target
            if stone is None or board.get(stone) == 0:
                raise ProblemError(f"no stone at the ladder's vertex {args.ladder}")
            result, move, seq = ladder_capture(board, stone)
        except Exception as e:           # the batch goes on: report and continue
            errors += 1
            rec = {"file": path, "vertex": args.ladder, "error": f"{type(e).__name__}: {e}"}
            print(json.dumps(rec) if args.json else f"{path}: error: {rec['error']}", flush=True)
            continue
        fmt = lambda m: m if isinstance(m, str) else ("PASS" if m is None else format_vertex(divmod(m, board.size), board.size))
        rec = {"file": path, "vertex": args.ladder, "result": RESULT_NAMES[result],
               "move": None if move is None else fmt(move), "sequence": [fmt(m) for m in seq]}
        if args.sgf_out:
            _write_out(rec, write_ladder_sgf, path, args.sgf_out, board, rec, seq,
                       position=args.move is not None, name=sgf_name)
        if args.json:
            print(json.dumps(rec), flush=True)
        else:
            how = f", first move {rec['move']}: {' '.join(rec['sequence'])}" if rec["move"] else ""
            print(f"{path}: the string at {args.ladder} is {rec['result']} in a ladder{how}")
            print(ladder_diagram(board, stone, seq))
            if rec.get("sgf"):
                print(f"sgf: {rec['sgf']}")
            print()
    return 1 if errors and errors == len(files) else 0


def run(args) -> int:
    if args.ladder:
        ignored = [f"--{o.replace('_', '-')}" for o in ("target", "region", "to_play") if getattr(args, o)]
        if ignored:         # (a usage error, as _inputs': before any search)
            print(f"golois solve: --ladder does not take {', '.join(ignored)}", file=sys.stderr)
            return 2
        return solve_ladder(args)
    files = _inputs(args)
    if files is None:
        return 2
    jobs = getattr(args, "jobs", 1)
    network = getattr(args, "network", "none")
    parallel = jobs > 1 and len(files) > 1
    warning = oversubscribed(jobs, len(files))
    if warning:
        print(f"golois solve: warning: {warning}", file=sys.stderr)
    missing = parallel and network not in (None, "none") and network_missing(network)
    if missing:
        _say_no_prior(missing)
        network = "none"            # said once here, not by every worker
    names = _out_names(args, files)
    results = ordered_map(_solve_one, list(zip(files, names)), jobs, _start_worker, (args, network))
    try:
        from tqdm import tqdm
        results = tqdm(results, total=len(files), disable=len(files) < 2 or not sys.stderr.isatty(),
                       file=sys.stderr)
    except ImportError:
        pass
    per_dir = defaultdict(lambda: [0, 0])
    errors = done = 0
    broken = False
    try:
        for rec, text in results:
            done += 1
            if "error" in rec:          # the batch goes on: reported, counted
                errors += 1
                print(json.dumps(rec) if args.json else f"{rec['file']}: error: {rec['error']}",
                      flush=True)
                continue
            if "right" in rec:
                d = per_dir[accuracy_group(rec["file"])]
                d[0] += rec["right"]
                d[1] += 1
            print(json.dumps(rec) if args.json else text, flush=True)
    except BrokenProcessPool as e:      # a worker died (a crash in compiled code)
        broken = True
        print(f"golois solve: a worker process died ({e}); {files[done]} and the "
              f"{len(files) - done - 1} files after it were not solved", file=sys.stderr)
    out = sys.stderr if args.json else sys.stdout
    for d, (ok, n) in sorted(per_dir.items()):
        print(f"{d}: {ok}/{n} = {100 * ok / n:.1f}% first move right", file=out)
    return 1 if broken or (errors and errors == len(files)) else 0


_WORKER = {}        # this process's options and prior for `_solve_one` (set by `_start_worker`)


def _start_worker(args, network):
    """ordered_map's initializer (once per worker process, or here with one job): the options
    and the policy prior that every problem solved in this process uses, loaded when a guess
    to live first needs it (`LazyPrior`)."""
    _WORKER["args"], _WORKER["prior"] = args, network_prior(network, lazy=True, precision=args.precision)


def _solve_one(task):
    """(record, text) of one (file, --sgf-out name) with `_WORKER`'s options and prior: the JSON
    record and the text answer (None with --json); an error record and None when it could not
    be solved."""
    args, (path, sgf_name) = _WORKER["args"], task
    try:
        rec, board, sol = solve_file(path, args, _WORKER["prior"], sgf_name)
    except Exception as e:              # noqa: BLE001 -- the batch goes on: report and continue
        return {"file": path, "error": f"{type(e).__name__}: {e}"}, None
    return rec, None if args.json else _text(rec, board, sol)


def _text(rec, board, sol) -> str:
    """The text answer to one problem: the diagram, result, move, PV, refuted first moves,
    nodes and time, and whether the answer is right."""
    lines = [f"{rec['file']}: {NAMES[sol.to_move]} to {sol.goal}", diagram(board, sol),
             f"result: {sol.result} ({sol.status})",
             f"target: the {NAMES[3 - sol.attacker]} string at {rec['target']}",
             f"move: {rec['move']}" + (f"   winning: {' '.join(rec['winning'])}" if rec["winning"] else ""),
             f"pv: {' '.join(rec['pv'])}"]
    if rec.get("replies"):
        lines.append("replies: " + "  ".join(
            f"{m} ({answer or 'settled'})" for m, answer in rec["replies"].items()))
    if sol.refuted:
        lines.append("refuted: " + "  ".join(
            f"{sol.vertex(m)} ({sol.vertex(line[0]) if line else 'settled'})"
            for m, line in sol.refuted.items()))
    lines.append(f"nodes: {sol.nodes}  time: {sol.seconds:.3f} s")
    if "region" in rec:                 # --show-frame
        lines += ["searched on:", frame_diagram(board, sol)]
    if "right" in rec:
        lines.append("answer: " + ("RIGHT" if rec["right"] else f"WRONG (expected {' or '.join(rec['answers'])})"))
    if rec.get("sgf"):
        lines.append(f"sgf: {rec['sgf']}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="golois")
    sub = p.add_subparsers()
    add_parser(sub)
    args = p.parse_args(["solve"] + list(argv if argv is not None else sys.argv[1:]))
    return run(args)
