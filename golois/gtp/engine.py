"""Build the GTP engine from its command sets, and run it (`python play.py`, `golois gtp`).

`build_engine(config)` is the one place that decides which command sets a running engine has:
the core (protocol, board, SGF, time), the player's (genmove with the shipped network), the
search's analysis (lz-analyze, kata-analyze, pondering), the tactical commands and the solver's.
Start with `build_engine`.
"""

from __future__ import annotations

import argparse
import sys

from golois.gtp.analyze import ANALYZE as SEARCH_ANALYZE
from golois.gtp.analyze import COMMANDS as ANALYSIS
from golois.gtp.analyze import enable_pondering
from golois.gtp.protocol import CORE, EngineConfig, GtpEngine
from golois.gtp.play import ANALYZE as PLAY_ANALYZE
from golois.gtp.play import COMMANDS as PLAY
from golois.gtp.play import add_player_arguments, install_player, make_player, options_from_args
from golois.gtp.solver import COMMANDS as SOLVER
from golois.gtp.tactics import COMMANDS as TACTICS
from tactics.owl import SolverConfig


def command_sets() -> list:
    """The command sets of a full engine, core first."""
    return [CORE, PLAY, ANALYSIS, TACTICS, SOLVER]


def build_engine(config: EngineConfig | None = None, solver: SolverConfig | None = None) -> GtpEngine:
    """A ready GTP engine; `engine.solver` holds the solver's limits."""
    engine = GtpEngine(command_sets(), config)
    engine.solver = solver or SolverConfig()
    engine.extra["gogui_analyze"] = PLAY_ANALYZE + SEARCH_ANALYZE
    return engine


def add_parser(subparsers) -> None:
    """`golois gtp`: the GTP engine on stdin/stdout."""
    p = subparsers.add_parser("gtp", help="run the GTP engine on stdin/stdout (as play.py)")
    add_engine_arguments(p)
    p.set_defaults(func=run)


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by play.py and `golois gtp`."""
    engine, solver = EngineConfig(), SolverConfig()
    p.add_argument("--size", type=int, default=engine.size, help=f"initial board size (default {engine.size})")
    p.add_argument("--komi", type=float, default=engine.komi, help=f"initial komi (default {engine.komi})")
    p.add_argument("--name", default=engine.name, help="name answered to the GTP name command")
    p.add_argument("--solver-time", type=float, default=solver.time_limit, metavar="S",
                   help=f"seconds per life-and-death search (owl_attack, restricted_genmove...; default {solver.time_limit:g})")
    p.add_argument("--solver-nodes", type=int, default=solver.max_nodes, metavar="N",
                   help=f"positions per life-and-death search, whichever limit comes first (default {solver.max_nodes:,}); "
                        "with a --solver-time no search reaches, the answers no longer depend on the machine's speed")
    p.add_argument("--ponder", action="store_true",
                   help="with --search mcts: search on the opponent's time, until the next command")
    add_player_arguments(p)


def run(args) -> int:
    """Serve GTP until quit or end of input."""
    if not args.solver_time > 0:
        raise SystemExit("--solver-time must be positive")
    if not args.solver_nodes > 0:
        raise SystemExit("--solver-nodes must be positive")
    engine = build_engine(EngineConfig(name=args.name, size=args.size, komi=args.komi),
                          SolverConfig(time_limit=args.solver_time, max_nodes=args.solver_nodes))
    install_player(engine, make_player(options_from_args(args)))
    if args.ponder:
        enable_pondering(engine)
    engine.serve(sys.stdin, sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of play.py."""
    p = argparse.ArgumentParser(prog="play.py", description="Golois GTP engine (stdin/stdout).")
    add_engine_arguments(p)
    return run(p.parse_args(argv))
