"""GTP commands of the player: genmove, cleanup, scoring, and GoGui analyze commands.

`COMMANDS` (the "play" set, listed in `golois.gtp.engine.command_sets`) holds `genmove`,
`kgs-genmove_cleanup`, `final_score`, `final_status_list`, `place_free_handicap`,
`gogui-analyze_commands` and the `golois-*` analyze commands it lists (policy heat map, ownership,
dead stones and group status, ladders, the life-and-death solver's groups at stake).  The
`Player` lives in `engine.extra["player"]`; install one with `install_player(engine, player)`
(`make_player(options)` builds it from the command line options of `add_player_arguments`).
Without one, a fallback-policy player is made on first use.

Start with `genmove`.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tactics.board import BLACK, EMPTY, WHITE

from golois.gtp.protocol import CommandSet, GtpFailure, check_handicap, fixed_points, place_handicap
from golois.nn.registry import DEFAULT_NETWORK, PRECISIONS, SHIPPED_NETWORKS, default_model, resolve_model
from golois.player.hooks import TacticsHooks, default_hooks
from golois.player.player import Player, PlayerConfig, fallback_policy, load_network_policy
from golois.player.scoring import format_score
from golois.search.clock import spend
from golois.search.player import SearchPlayer, SearchSettings, add_search_arguments, settings_from_args

COMMANDS = CommandSet("play")

# ------------------------------------------------------------------------------ player set-up

@dataclass
class PlayerOptions:
    """Command-line choices that build a Player (see add_player_arguments)."""
    policy: str = "auto"                 # auto | fallback | network
    model: str | None = None             # network weights (.pt); auto: the shipped default
    symmetries: int = 8
    tactics: bool = True
    life_and_death: bool = True          # the solver's hook (with tactics on)
    threads: int = 1                     # torch threads for the network (1: one core, as measured)
    precision: str = "auto"              # fp32 | bf16 | int8 | auto: the fastest this CPU runs natively
    config: PlayerConfig | None = None
    search: SearchSettings | None = None # the tree search's settings; None: the fast bot


def add_player_arguments(p: argparse.ArgumentParser) -> None:
    """Options of play.py / `golois gtp` that choose and tune the player; their defaults are
    PlayerOptions' and PlayerConfig's."""
    opts, cfg = PlayerOptions(), PlayerConfig()
    g = p.add_argument_group("player")
    g.add_argument("--policy", choices=["auto", "fallback", "network"], default=opts.policy,
                   help="auto: the shipped network when present, else the fallback heuristic")
    g.add_argument("--model", default=opts.model,
                   help=f"network weights for --policy network/auto: {' or '.join(SHIPPED_NETWORKS)} (shipped; "
                        f"default {DEFAULT_NETWORK}) or a .pt file")
    g.add_argument("--symmetries", type=int, default=opts.symmetries, choices=[1, 4, 8], help="symmetry bagging")
    g.add_argument("--threads", type=int, default=opts.threads,
                   help=f"CPU threads for the network (default {opts.threads}: a batch of 8 small boards gains "
                        "little from more, and idle threads spin against the opponent's engine in matches)")
    g.add_argument("--precision", choices=PRECISIONS, default=opts.precision,
                   help="the network's arithmetic: auto (the fastest this machine runs natively, said on "
                        "stderr), fp32, bf16 or int8 (default %(default)s)")
    g.add_argument("--no-tactics", dest="tactics", action="store_false", help="no ladder / life-and-death hooks")
    g.add_argument("--no-life-and-death", dest="life_and_death", action="store_false",
                   help="tactics without the life-and-death solver's hook (ladders and captures only)")
    g.add_argument("--resign-threshold", type=float, default=cfg.resign_threshold,
                   help=f"resign when the win probability stays under this (0: never; default {cfg.resign_threshold})")
    g.add_argument("--resign-from", choices=("auto", "value", "playouts"), default=cfg.resign_from,
                   help="what resigning reads: auto, the playouts' estimate with the network's value head "
                        f"agreeing (under {cfg.resign_value_agree}) where it has one; value, the head alone; "
                        f"playouts, the playouts alone (default {cfg.resign_from})")
    g.add_argument("--resign-margin", type=float, default=cfg.resign_margin,
                   help=f"also resign when behind by this fraction of the board's points (0: off; default {cfg.resign_margin})")
    g.add_argument("--playouts", type=int, default=cfg.playouts,
                   help=f"playouts for the pass/resign estimates before the endgame (default {cfg.playouts})")
    g.add_argument("--endgame-playouts", type=int, default=cfg.endgame_playouts,
                   help=f"playouts in the endgame and for final_score / final_status_list (default {cfg.endgame_playouts})")
    g.add_argument("--temperature", type=float, default=cfg.temperature, help="0: best move; >0: sample")
    g.add_argument("--temperature-moves", type=int, default=cfg.temperature_moves,
                   help="sample only in the game's first N moves, then play the best move (0: always)")
    g.add_argument("--seed", type=int, default=cfg.seed)
    add_search_arguments(p)


#: PlayerConfig fields that add_player_arguments sets from the command line.
CONFIG_OPTIONS = ("tactics", "resign_threshold", "resign_from", "resign_margin", "playouts", "endgame_playouts", "temperature",
                  "temperature_moves", "seed")


def options_from_args(args) -> PlayerOptions:
    """PlayerOptions from parsed add_player_arguments options."""
    cfg = PlayerConfig(**{name: getattr(args, name) for name in CONFIG_OPTIONS})
    return PlayerOptions(policy=args.policy, model=args.model, symmetries=args.symmetries,
                         tactics=args.tactics, life_and_death=args.life_and_death, threads=args.threads,
                         precision=args.precision, config=cfg, search=settings_from_args(args))


def make_player(options: PlayerOptions | None = None, log=sys.stderr) -> Player:
    """A Player for the options; `auto` falls back (and says so on log) when no network loads."""
    opts = options or PlayerOptions()
    cfg = opts.config or PlayerConfig(tactics=opts.tactics)
    hooks = default_hooks(opts.life_and_death) if opts.tactics else TacticsHooks()
    policy, name = None, "fallback"
    if opts.policy in ("auto", "network"):
        path = resolve_model(opts.model) if opts.model else default_model()
        try:
            if path is None:
                raise FileNotFoundError("no network weights shipped in golois/weights/")
            policy, name = load_network_policy(path, opts.symmetries, opts.threads, opts.precision), f"network {Path(path).name} x{opts.symmetries}"
        except Exception as e:  # noqa: BLE001 -- any failure to load means: fall back, loudly
            if opts.policy == "network":
                raise
            if log is not None:
                print(f"golois: using the FALLBACK heuristic policy ({type(e).__name__}: {e})", file=log)
    player = Player(policy or fallback_policy, cfg, hooks, name=name)
    if policy is None:
        player.policy_name = "fallback"
    if opts.search is not None:
        player = SearchPlayer(player, opts.search)
    if log is not None:
        value = getattr(policy, "has_value", False)
        heat = getattr(getattr(policy, "network", None), "value_temperature", 1.0)
        head = "value head" + (f" (read at temperature {heat:.3g})" if heat != 1.0 else "")
        resigns = {"auto": f"{head}: resigns from the playouts when the head agrees",
                   "value": f"{head}: resigns from it alone (--resign-from value)",
                   "playouts": f"{head}, but resigns from the playouts (--resign-from playouts)"}[cfg.resign_from] \
            if value else "no value head: resigns from the playouts"
        if opts.search is not None:
            w = opts.search.leaves.playout_weight
            ev = getattr(player, "evaluator", None)
            rollouts = (f"{ev.rollout_name}, {opts.search.leaves.playouts} a leaf on "
                        f"{opts.search.leaves.threads} thread{'s' if opts.search.leaves.threads > 1 else ''}"
                        if ev is not None else "rollouts")
            leaves = (f"leaf values from the {head}{f' and {rollouts} at {w:g}' if w else ''}" if value
                      else f"no value head: leaf values from {rollouts}")
            budget = opts.search.search
            resigns = (f"search ({budget.visits or 'no'} visits, {budget.seconds or 'no'} seconds a move without a clock); "
                       f"{leaves}; resigns from the search's win rate")
        print(f"golois: policy {player.policy_name}; {hooks.describe()}; {resigns}", file=log)
    return player


def install_player(engine, player: Player) -> None:
    """Make player answer the engine's genmove."""
    engine.extra["player"] = player
    engine.extra.pop("judgement", None)


def get_player(engine) -> Player:
    """The engine's player (a fallback-policy one is made on first use)."""
    if "player" not in engine.extra:
        engine.extra["player"] = Player(fallback_policy, PlayerConfig(), TacticsHooks())
    return engine.extra["player"]


def judgement(engine):
    """The player's judgement of the current position, cached until the position changes."""
    key = (engine.board.hash, engine.board.move_count, engine.board.size, engine.komi)
    cached = engine.extra.get("judgement")
    if cached is None or cached[0] != key:
        cached = (key, get_player(engine).judge(engine.board, engine.komi, endgame=True, final=True))
        engine.extra["judgement"] = cached
    return cached[1]


# ------------------------------------------------------------------------------ moves

def play_decision(engine, colour: int, cleanup: bool = False, report=None, report_every: float = 0.0) -> str:
    """The player's move for colour, played on the engine's board: its vertex, or `resign`
    (report, report_every: the search's progress, for the analyze commands)."""
    player = get_player(engine)
    if len(engine.moves) <= 1:
        player.losing_streak = {BLACK: 0, WHITE: 0}
    engine.extra["genmove_colour"] = colour
    if isinstance(player, SearchPlayer):
        player.time = engine.time
        started = time.monotonic()
        decision = player.genmove(engine.board, colour, engine.komi, cleanup=cleanup, report=report,
                                  report_every=report_every, stop=engine.quitting)
        spend(engine.time, colour, time.monotonic() - started)
    else:
        decision = player.genmove(engine.board, colour, engine.komi, cleanup=cleanup)
    if decision.resign:
        return "resign"
    engine.play(colour, decision.move)
    return engine.format_vertex(decision.move)


def _genmove(engine, colour: str, cleanup: bool) -> str:
    return play_decision(engine, engine.parse_color(colour), cleanup)


@COMMANDS.command("genmove")
def genmove(engine, colour):
    return _genmove(engine, colour, cleanup=False)


@COMMANDS.command("kgs-genmove_cleanup")
def kgs_genmove_cleanup(engine, colour):
    return _genmove(engine, colour, cleanup=True)


@COMMANDS.command("place_free_handicap")
def place_free_handicap(engine, count):
    n = check_handicap(engine, count, limit=9 if engine.board.size >= 7 else 4)
    return place_handicap(engine, fixed_points(engine.board.size, n))


# ------------------------------------------------------------------------------ scoring

@COMMANDS.command("final_score")
def final_score(engine):
    return format_score(judgement(engine).score)


@COMMANDS.command("final_status_list")
def final_status_list(engine, status):
    status = status.lower()
    if status not in ("alive", "dead", "seki"):
        raise GtpFailure("invalid status")
    j = judgement(engine)
    stones = engine.board.to_array().ravel()
    seen = np.zeros(stones.size, dtype=bool)
    lines = []
    for p in range(stones.size):
        if stones[p] == EMPTY or seen[p]:
            continue
        string = engine.board.string(p)
        seen[string] = True
        if j.status(p) == status:
            lines.append(" ".join(engine.format_vertex(q) for q in string))
    return "\n".join(lines)


# ------------------------------------------------------------------------------ GoGui analyze

ANALYZE = [
    ("gfx", "Policy heat map", "golois-policy_gfx %c"),
    ("dboard", "Policy probabilities", "golois-policy_dboard %c"),
    ("dboard", "Ownership (playouts)", "golois-ownership"),
    ("gfx", "Ownership and win rate (rollouts)", "golois-rollout_ownership"),
    ("gfx", "Ownership and win rate (value head)", "golois-value_ownership"),
    ("gfx", "Dead stones and seki", "golois-status_gfx"),
    ("sboard", "Group status", "golois-group_status"),
    ("gfx", "Ladders", "golois-ladder_gfx %c"),
    ("gfx", "Life and death (solver)", "golois-life_and_death_gfx"),
    ("string", "Tactics hooks", "golois-hooks"),
    ("string", "Win probability (value head)", "golois-winrate"),
]


@COMMANDS.command("gogui-analyze_commands")
def gogui_analyze_commands(engine):
    entries = engine.extra.get("gogui_analyze", ANALYZE)    # build_engine adds the other sets' entries
    return "\n".join(f"{kind}/{label}/{command}" for kind, label, command in entries)


def _probabilities(engine, colour: str) -> np.ndarray:
    c = engine.parse_color(colour)
    scores = get_player(engine).scores(engine.board, c)
    if not np.isfinite(scores).any():
        return np.zeros(scores.size)
    e = np.exp(scores - scores[np.isfinite(scores)].max())
    return e / e.sum()


def _rows(values, n: int, fmt) -> str:
    return "\n" + "\n".join(" ".join(fmt(values[r * n + c]) for c in range(n)) for r in range(n))


@COMMANDS.command("golois-policy_dboard")
def policy_dboard(engine, colour="b"):
    return _rows(_probabilities(engine, colour), engine.board.size, lambda v: f"{v:.3f}")


@COMMANDS.command("golois-policy_gfx")
def policy_gfx(engine, colour="b"):
    prob = _probabilities(engine, colour)
    if prob.max() <= 0:
        return "TEXT no legal move"
    top = prob.max()
    buckets: dict[str, list[str]] = {}
    for p in np.flatnonzero(prob > 0.002 * top):
        t = float(prob[p] / top) ** 0.5           # heat: yellow (weak) to red (strong)
        colour_hex = f"#ff{int(255 * (1 - t)):02x}00"
        buckets.setdefault(colour_hex, []).append(engine.format_vertex(int(p)))
    lines = [f"COLOR {hexc} {' '.join(vs)}" for hexc, vs in sorted(buckets.items())]
    best = np.argsort(-prob)[:5]
    lines.append("LABEL " + " ".join(f"{engine.format_vertex(int(p))} {100 * prob[p]:.0f}" for p in best if prob[p] > 0))
    return "\n".join(lines)


@COMMANDS.command("golois-winrate")
def winrate(engine):
    """The value head's win probability for each colour in the current position."""
    player = get_player(engine)
    board = engine.board
    to_move = board.to_move
    win = player.win_probability(board, to_move)
    if win is None:
        raise GtpFailure("the network has no value head")
    black = win if to_move == BLACK else 1.0 - win
    return f"black {100 * black:.1f}% white {100 * (1 - black):.1f}% ({'black' if to_move == BLACK else 'white'} to move)"


@COMMANDS.command("golois-ownership")
def ownership_dboard(engine):
    return _rows(judgement(engine).ownership.ravel(), engine.board.size, lambda v: f"{v:.2f}")


ROLLOUTS = 256        # rollouts behind golois-rollout_ownership


@COMMANDS.command("golois-rollout_ownership")
def rollout_ownership(engine):
    """GoGui gfx: the mean final owner of each point over ROLLOUTS rollouts of the rollout policy
    (INFLUENCE, +1 black), and black's share of their wins and their mean score."""
    from golois.rollout.weights import load_policy
    from tactics.rollout import RolloutPolicy
    if "rollout_policy" not in engine.extra:
        policy = load_policy()
        engine.extra["rollout_policy"] = (policy or RolloutPolicy(), "rollout policy" if policy else "random playouts")
    policy, name = engine.extra["rollout_policy"]
    black, score, owner, _ = policy.rollouts(engine.board, n=ROLLOUTS, komi=engine.komi, seed=1, ownership=True)
    n = engine.board.size
    cells = " ".join(f"{engine.format_vertex(p)} {owner[p]:.2f}" for p in range(n * n) if abs(owner[p]) >= 0.05)
    lines = [f"INFLUENCE {cells}"] if cells else []
    mean = f"B+{score:.1f}" if score > 0 else f"W+{-score:.1f}"
    lines.append(f"TEXT {name}: black wins {100 * black:.0f}% of {ROLLOUTS} rollouts, mean {mean}")
    return "\n".join(lines)


@COMMANDS.command("golois-value_ownership")
def value_ownership(engine):
    """GoGui gfx: the value head's final owner of each point (INFLUENCE, +1 black), its win
    probability and the score its map adds up to (the owned points less komi)."""
    player, board = get_player(engine), engine.board
    owner = player.value_ownership(board, board.to_move, engine.komi)
    if owner is None:
        raise GtpFailure("the network has no value head with an ownership map")
    win = player.win_probability(board, board.to_move)
    black = win if board.to_move == BLACK else 1.0 - win
    score = float(owner.sum()) - engine.komi
    cells = " ".join(f"{engine.format_vertex(p)} {owner[p]:.2f}" for p in range(owner.size) if abs(owner[p]) >= 0.05)
    lines = [f"INFLUENCE {cells}"] if cells else []
    lines.append(f"TEXT value head: black wins {100 * black:.0f}%, its ownership adds up to "
                 f"{'B' if score > 0 else 'W'}+{abs(score):.1f}")
    return "\n".join(lines)


@COMMANDS.command("golois-status_gfx")
def status_gfx(engine):
    j = judgement(engine)
    n = engine.board.size
    dead = [engine.format_vertex(int(p)) for p in np.flatnonzero(j.dead.ravel())]
    seki = [engine.format_vertex(int(p)) for p in np.flatnonzero(j.seki.ravel())]
    safe = [engine.format_vertex(int(p)) for p in np.flatnonzero(j.alive.ravel())]
    terr = j.territory.ravel()
    stones = engine.board.to_array().ravel()
    lines = []
    if dead:
        lines.append("MARK " + " ".join(dead))
    if seki:
        lines.append("TRIANGLE " + " ".join(seki))
    if safe:
        lines.append("CIRCLE " + " ".join(safe))
    for colour, name in ((BLACK, "b"), (WHITE, "w")):
        pts = [engine.format_vertex(p) for p in range(n * n) if terr[p] == colour and stones[p] != colour]
        if pts:
            lines.append(f"TERRITORY {name} " + " ".join(pts))
    lines.append(f"TEXT {format_score(j.score)} (dead marked x, seki triangles, Benson-alive circles)")
    return "\n".join(lines)


@COMMANDS.command("golois-group_status")
def group_status(engine):
    j = judgement(engine)
    stones = engine.board.to_array().ravel()
    alive = j.alive.ravel()

    def cell(p):
        if stones[p] == EMPTY:
            return "-"
        return "safe" if alive[p] else j.status(int(p))
    return _rows(list(range(stones.size)), engine.board.size, cell)


@COMMANDS.command("golois-ladder_gfx")
def ladder_gfx(engine, colour="b"):
    c = engine.parse_color(colour)
    player = get_player(engine)
    if player.hooks.ladder_facts is None:
        return "TEXT ladder module not available (tactics.ladder)"
    board = engine.board.copy()
    board.to_move = c
    facts = player.hooks.ladder_facts(board)
    labels, lines = [], []
    for key, letter in (("captures", "C"), ("saves", "S"), ("pushes", "P")):
        arr = np.asarray(facts.get(key, np.zeros(1)), dtype=np.int64).ravel()
        for p in np.flatnonzero(arr > 0):
            labels.append(f"{engine.format_vertex(int(p))} {letter}{arr[p]}")
    if labels:
        lines.append("LABEL " + " ".join(labels))
    cap = np.asarray(facts.get("capturable", np.zeros(1)), dtype=np.int64).ravel()
    if cap.any():
        lines.append("TRIANGLE " + " ".join(engine.format_vertex(int(p)) for p in np.flatnonzero(cap)))
    lines.append("TEXT ladders: C captures, S saves, P pushes (stones); triangles: capturable in a ladder")
    return "\n".join(lines)


@COMMANDS.command("golois-life_and_death_gfx")
def life_and_death_gfx(engine):
    """The groups at stake for the life-and-death hook (golois.player.hooks.LifeAndDeath) and
    the solver's verdict: critical groups squared with their saving (S) and killing (K) moves
    labelled, dead groups marked, living ones circled."""
    from golois.player.hooks import LifeAndDeath
    hook = get_player(engine).hooks.life_and_death
    if hook is None:                     # no solver hook in the player: one kept for this command
        hook = engine.extra.get("life_and_death")
        if hook is None:
            hook = engine.extra["life_and_death"] = LifeAndDeath()
    shapes: dict[str, list[str]] = {"SQUARE": [], "MARK": [], "CIRCLE": []}
    labels, counts = [], {}
    for group in hook.groups(engine.board):
        status, save, kill = hook.status(engine.board, group)
        counts[status] = counts.get(status, 0) + 1
        shape = {"critical": "SQUARE", "dead": "MARK", "alive": "CIRCLE"}.get(status)
        if shape:
            shapes[shape] += [engine.format_vertex(p) for p in group]
        if status == "critical":
            labels += [f"{engine.format_vertex(save)} S", f"{engine.format_vertex(kill)} K"]
    lines = [f"{shape} {' '.join(vs)}" for shape, vs in shapes.items() if vs]
    if labels:
        lines.append("LABEL " + " ".join(labels))
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no group at stake"
    lines.append(f"TEXT groups at stake: {summary} (squares critical: S saves, K kills; x dead; circles alive)")
    return "\n".join(lines)


@COMMANDS.command("golois-hooks")
def hooks(engine):
    player = get_player(engine)
    return f"policy {player.policy_name}; tactics {'on' if player.config.tactics else 'off'}; {player.hooks.describe()}"
