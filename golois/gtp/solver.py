"""GTP commands of the life-and-death solver, in GNU Go's formats (so GNU Go's regression files
run against us): owl_attack / owl_defend (`0`, `1 MOVE`, `2 MOVE`, `3 MOVE`), dragon_status
(`alive`, `critical ATTACK DEFENSE`, `dead`), unconditional_status (tactics.unconditional) and
restricted_genmove COLOR VERTEX... (the solver's first move inside the given region, as
../shared/tools/gtp_tsumego.py drives an engine with RESTRICT=1).

Start with `owl_attack`.  Of several winning first moves, owl answers the one the player's
network is sure of when it too wins (`SolverConfig.prefer`): the regression files list the
natural move.  The limits of every search are the engine's `SolverConfig`
(`engine.solver`, set by golois.gtp.engine.build_engine from `--solver-time`; the GTP command
`solver_time SECONDS` changes it).
"""

from __future__ import annotations

from golois.gtp.protocol import CommandSet, GtpFailure
from tactics.board import EMPTY
from tactics.owl import SolverConfig, owl_solve
from tactics.problem import ProblemError, solve

COMMANDS = CommandSet("solver")


def _prior(engine):
    """The player's policy network as a solver prior, or None (no network loaded)."""
    player = engine.extra.get("player")
    return player.policy if player is not None and player.policy_name != "fallback" else None


def config(engine) -> SolverConfig:
    """The engine's SolverConfig (a default one is attached on first use)."""
    cfg = getattr(engine, "solver", None)
    if cfg is None:
        cfg = engine.solver = SolverConfig()
    return cfg


def _time(engine) -> float:
    return config(engine).time_limit


def _target(engine, vertex):
    flat = engine.parse_vertex(vertex)
    if flat is None or engine.board.get(flat) == EMPTY:
        raise GtpFailure("vertex must not be empty")
    return flat


def _owl(engine, vertex, attack: bool):
    flat = _target(engine, vertex)
    colour = engine.board.get(flat)
    mover = 3 - colour if attack else colour
    try:
        return owl_solve(engine.board, mover, flat, config(engine), _prior(engine))
    except ProblemError as e:
        raise GtpFailure(str(e)) from None


@COMMANDS.command("solver_time")
def solver_time(engine, seconds):
    try:
        value = float(seconds)
    except ValueError:
        raise GtpFailure("seconds must be a number") from None
    if not value > 0:
        raise GtpFailure("seconds must be positive")
    config(engine).time_limit = value
    return ""


@COMMANDS.command("owl_attack")
def owl_attack(engine, vertex):
    sol = _owl(engine, vertex, True)
    return "0" if sol.code == 0 else f"{sol.code} {engine.gnugo_vertex(sol.move)}"


@COMMANDS.command("owl_defend")
def owl_defend(engine, vertex):
    sol = _owl(engine, vertex, False)
    return "0" if sol.code == 0 else f"{sol.code} {engine.gnugo_vertex(sol.move)}"


@COMMANDS.command("dragon_status")
def dragon_status(engine, vertex):
    att = _owl(engine, vertex, True)
    if att.code == 0:
        return "alive"
    dfn = _owl(engine, vertex, False)
    if dfn.code == 0:
        return "dead"
    return f"critical {engine.gnugo_vertex(att.move)} {engine.gnugo_vertex(dfn.move)}"


@COMMANDS.command("unconditional_status")
def unconditional_status(engine, vertex):
    """GNU Go's unconditional status (tactics.unconditional: capture play-out, not just Benson)."""
    from tactics.unconditional import status
    flat = engine.parse_vertex(vertex)
    if flat is None:
        raise GtpFailure("invalid vertex")
    return status(engine.board, flat)


@COMMANDS.command("restricted_genmove")
def restricted_genmove(engine, colour, *vertices):
    mover = engine.parse_color(colour)
    allowed = [engine.parse_vertex(v) for v in vertices]
    allowed = [p for p in allowed if p is not None and engine.board.get(p) == EMPTY]
    if not allowed:
        return engine.gnugo_vertex(None)
    # the player's network, if it has one, joins the playouts in guessing for an unfinished search to live
    prior = _prior(engine)
    try:
        sol = solve(engine.board, mover, time_limit=_time(engine), max_nodes=config(engine).max_nodes,
                    prior=prior)
    except ProblemError:
        sol = None
    engine.extra["last_solution"] = sol
    move = None
    if sol is not None:
        for m in [sol.move] + list(sol.winning):
            if m in allowed:
                move = m
                break
    if move is None:
        legal = set(engine.board.legal_moves(mover))
        move = next((p for p in allowed if p in legal), None)
    if move is not None:
        engine.play(mover, move)
    return engine.gnugo_vertex(move)
