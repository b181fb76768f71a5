"""Matches between two GTP engines: `golois match --black CMD --white CMD --games N`.

Engine A is `--black`, engine B `--white` in the first game; colours alternate game by game.  Each
engine is one long-lived subprocess (commands are shell strings, split with shlex), reset with
`boardsize` / `clear_board` / `komi` per game.  Our own `Board` referees every move:

* An illegal move (occupied, ko, suicide, positional superko repeat, or garbage) loses the game
  for its author (result `B+F`/`W+F`, reason recorded); an engine that fails or dies on genmove
  forfeits likewise, and so does one that refuses a move the referee found legal.
* A game ends on resignation or on two passes in a row.  Dead stones: both engines are asked
  `final_status_list dead`; if they agree, that list is used.  Otherwise the game is **played
  out**: both engines keep moving (`kgs-genmove_cleanup` where known, else `genmove`) until two
  passes in a row again, and are asked once more.  If they still disagree, a **referee** decides:
  GNU Go (`gnugo --mode gtp`, found by `find_gnugo`, replaying the moves) when `--referee auto`
  or `gnugo` finds it, else our own judge (`golois.player.scoring.judge`: Benson + playout ownership).
  The same referee scores a game stopped by `--max-moves`.
* Score: area (stones + surrounded empty points, dead stones removed) minus komi.
* Clock (`--time-settings MAIN BYO STONES`, Canadian byo-yomi as GTP's `time_settings`): both
  engines get the settings, and `time_left` before each genmove; the referee times each genmove
  (the GTP round trip included) and an engine that overruns its main time and then a byo-yomi
  period loses on time (`B+T`/`W+T`).  Each game records the seconds each engine used.

Each game is written as SGF (FF[4], KM, RE, PB/PW) to `--sgf-dir`.  The summary gives A's wins,
the win rate with a 95% Wilson interval, and the Elo difference with the interval mapped through
the same formula.  Start with `run_match`.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import date

import numpy as np

from tactics import coords
from tactics.board import BLACK, WHITE, Board

from golois.gtp.client import GtpClient, GtpError, find_gnugo
from golois.gtp.protocol import TimeState
from golois.player.scoring import JudgeConfig, area_score, format_score, judge
from golois.search.clock import remaining, spend
from golois.sgf import Event, Game


@dataclass
class MatchConfig:
    """One match: engines as shell command strings, games and rules."""
    black: str                              # engine A (black in the first game)
    white: str                              # engine B
    games: int = 2
    size: int = 19
    komi: float = 7.5
    sgf_dir: str | None = None
    max_moves: int | None = None            # per game; None: 3 * size * size
    referee: str = "auto"                   # auto | gnugo | golois: who settles dead-stone disputes
    progress: bool = True
    time_settings: tuple | None = None      # (main seconds, byo-yomi seconds, stones per period); None: no clock


@dataclass
class GameResult:
    """The outcome of one game (winner_engine 'A', 'B' or '' for a draw)."""
    index: int
    black_engine: str
    winner: int | None                      # BLACK, WHITE, or None for a draw
    winner_engine: str
    result: str                             # SGF RE: 'B+R', 'W+3.5', 'B+F', '0'
    reason: str                             # resign | score | illegal move ... | forfeit ... | move cap
    scoring: str = ""                       # agreed | played out | referee gnugo | referee golois
    moves: int = 0
    seconds: float = 0.0
    sgf: str | None = None
    used_a: float = 0.0                     # seconds engine A spent on its moves (genmove round trips)
    used_b: float = 0.0


@dataclass
class MatchSummary:
    """Totals for engine A against engine B."""
    games: int
    wins_a: int
    wins_b: int
    draws: int
    win_rate_a: float
    interval_a: tuple[float, float]
    elo_a: float
    elo_interval: tuple[float, float]
    seconds_per_game: float
    moves_per_game: float
    results: list[GameResult] = field(default_factory=list)
    used_a: float = 0.0                     # seconds per game on A's moves, and on B's
    used_b: float = 0.0

    def report(self, a: str = "A", b: str = "B") -> str:
        """Human-readable summary."""
        lo, hi = self.interval_a
        elo_lo, elo_hi = self.elo_interval
        reasons = {}
        for r in self.results:
            reasons[r.reason.split(":")[0]] = reasons.get(r.reason.split(":")[0], 0) + 1
        return "\n".join([
            f"A = {a}", f"B = {b}",
            f"games {self.games}: A wins {self.wins_a}, B wins {self.wins_b}, draws {self.draws}",
            f"A win rate {100 * self.win_rate_a:.1f}% (95% Wilson interval {100 * lo:.1f}% .. {100 * hi:.1f}%)",
            f"Elo(A - B) {self.elo_a:+.0f} (95% interval {elo_lo:+.0f} .. {elo_hi:+.0f})",
            f"{self.moves_per_game:.0f} moves and {self.seconds_per_game:.1f} s per game "
            f"(A's moves {self.used_a:.1f} s, B's {self.used_b:.1f} s); endings: "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())),
        ])


# ------------------------------------------------------------------------------ statistics

def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (draws may count as halves)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float, cap: float = 800.0) -> float:
    """Elo difference for a win rate p (capped at +-cap for p = 0 or 1)."""
    if p <= 0:
        return -cap
    if p >= 1:
        return cap
    return max(-cap, min(cap, 400.0 * math.log10(p / (1 - p))))


def summarise(results: list[GameResult]) -> MatchSummary:
    """Totals, Wilson interval and Elo for engine A."""
    n = len(results)
    wa = sum(1 for r in results if r.winner_engine == "A")
    wb = sum(1 for r in results if r.winner_engine == "B")
    draws = n - wa - wb
    rate = (wa + 0.5 * draws) / n if n else 0.0
    lo, hi = wilson(wa + 0.5 * draws, n)
    return MatchSummary(n, wa, wb, draws, rate, (lo, hi), elo(rate), (elo(lo), elo(hi)),
                        sum(r.seconds for r in results) / max(n, 1), sum(r.moves for r in results) / max(n, 1),
                        results, used_a=sum(r.used_a for r in results) / max(n, 1),
                        used_b=sum(r.used_b for r in results) / max(n, 1))


# ------------------------------------------------------------------------------ one game

class _Forfeit(Exception):
    """colour loses the game: `reason`, and SGF's letter for it (F: forfeit, T: time)."""

    def __init__(self, colour: int, reason: str, letter: str = "F"):
        super().__init__(reason)
        self.colour, self.reason, self.letter = colour, reason, letter


def _parse_dead(answer: str, size: int) -> frozenset:
    points = set()
    for word in answer.split():
        rc = coords.parse_vertex(word, size)
        if rc is not None:
            points.add(coords.to_flat(*rc, size))
    return frozenset(points)


def _ask_dead(engine: GtpClient, size: int):
    try:
        return _parse_dead(engine.send("final_status_list dead"), size)
    except (GtpError, coords.CoordinateError, OSError):
        return None


def _knows(engine: GtpClient, command: str) -> bool:
    try:
        return engine.send(f"known_command {command}").strip() == "true"
    except (GtpError, OSError):
        return False


class _Game:
    """The state of one game in progress, refereed by our Board."""

    def __init__(self, engines: dict, cfg: MatchConfig):
        self.engines, self.cfg = engines, cfg
        self.board = Board(cfg.size)
        self.events: list[Event] = []
        self.used = {BLACK: 0.0, WHITE: 0.0}
        self.clock = TimeState(*cfg.time_settings) if cfg.time_settings else None   # both players' clocks
        for e in engines.values():
            e.send(f"boardsize {cfg.size}")
            e.send("clear_board")
            e.send(f"komi {cfg.komi}")
            if self.clock is not None:
                main, byo, stones = cfg.time_settings
                e.send(f"time_settings {main:g} {byo:g} {stones}")

    def move(self, colour: int, command: str = "genmove") -> int | None | str:
        """Ask colour's engine for a move, referee it, tell the other; 'resign' or flat/None."""
        name = "b" if colour == BLACK else "w"
        try:
            if self.clock is not None:
                left, stones = remaining(self.clock, colour)
                self.engines[colour].send(f"time_left {name} {max(int(left), 0)} {stones}")
            t = time.monotonic()
            answer = self.engines[colour].send(f"{command} {name}").strip().lower()
        except (GtpError, OSError) as e:
            raise _Forfeit(colour, f"forfeit: {command} failed ({e})") from None
        spent = time.monotonic() - t
        self.used[colour] += spent
        if self.clock is not None and not spend(self.clock, colour, spent):
            raise _Forfeit(colour, f"time: {spent:.1f} s on move {len(self.events) + 1}", "T")
        if answer == "resign":
            return "resign"
        try:
            flat = coords.vertex_to_flat(answer, self.cfg.size)
        except coords.CoordinateError:
            raise _Forfeit(colour, f"illegal move: {answer!r} is no vertex") from None
        if flat is not None and (not self.board.is_legal(flat, colour) or self.board.repeats(flat, colour)):
            raise _Forfeit(colour, f"illegal move: {answer.upper()}")
        self.board.play(flat, colour)
        self.events.append(Event(colour, flat))
        other = WHITE if colour == BLACK else BLACK
        try:
            self.engines[other].send(f"play {name} {answer}")
        except (GtpError, OSError) as e:
            raise _Forfeit(other, f"forfeit: refused the legal move {answer.upper()} ({e})") from None
        return flat

    def until_two_passes(self, colour: int, limit: int, cleanup: bool = False) -> tuple[int, str | None]:
        """Alternate moves from colour until two passes in a row or limit moves: (next colour, ending)."""
        passes = 0
        commands = {c: ("kgs-genmove_cleanup" if cleanup and _knows(self.engines[c], "kgs-genmove_cleanup")
                        else "genmove") for c in (BLACK, WHITE)}
        for _ in range(limit):
            flat = self.move(colour, commands[colour])
            if flat == "resign":
                return colour, "resign"
            passes = passes + 1 if flat is None else 0
            colour = WHITE if colour == BLACK else BLACK
            if passes >= 2:
                return colour, None
        return colour, "move cap"


def _referee_dead(board: Board, events: list[Event], cfg: MatchConfig) -> tuple[np.ndarray, str]:
    """Dead stones by GNU Go (when asked for and found) or by our judge."""
    n = cfg.size
    path = find_gnugo() if cfg.referee in ("auto", "gnugo") else None
    if path is not None:
        try:
            with GtpClient([path, "--mode", "gtp", "--chinese-rules"]) as ref:
                ref.send(f"boardsize {n}")
                ref.send("clear_board")
                ref.send(f"komi {cfg.komi}")
                for e in events:
                    ref.send(f"play {'b' if e.colour == BLACK else 'w'} "
                             f"{coords.format_vertex(None if e.point is None else divmod(e.point, n), n)}")
                dead = _parse_dead(ref.send("final_status_list dead"), n)
            mask = np.zeros(n * n, dtype=bool)
            mask[list(dead)] = True
            return mask.reshape(n, n), "referee gnugo"
        except (GtpError, OSError, coords.CoordinateError):
            pass
    return judge(board, cfg.komi, JudgeConfig(playouts=200)).dead, "referee golois"


def play_game(index: int, engines_ab: dict, cfg: MatchConfig) -> GameResult:
    """Game number index (A is black in even games) between engines_ab['A'] and ['B']."""
    black_engine = "A" if index % 2 == 0 else "B"
    white_engine = "B" if black_engine == "A" else "A"
    engines = {BLACK: engines_ab[black_engine], WHITE: engines_ab[white_engine]}
    label = {BLACK: black_engine, WHITE: white_engine}
    start = time.time()
    limit = cfg.max_moves or 3 * cfg.size * cfg.size
    game = _Game(engines, cfg)
    scoring, letter = "", "F"
    try:
        colour, ending = game.until_two_passes(BLACK, limit)
        if ending == "resign":
            winner, reason, score = WHITE if colour == BLACK else BLACK, "resign", None
        else:
            dead = None
            if ending is None:
                answers = [_ask_dead(e, cfg.size) for e in engines.values()]
                if answers[0] is not None and answers[0] == answers[1]:
                    dead, scoring = answers[0], "agreed"
                else:
                    left = max(limit - len(game.events), 0) + cfg.size * cfg.size
                    colour, ending = game.until_two_passes(colour, left, cleanup=True)
                    if ending == "resign":
                        raise _Forfeit(colour, "resign")
                    answers = [_ask_dead(e, cfg.size) for e in engines.values()]
                    if ending is None and answers[0] is not None and answers[0] == answers[1]:
                        dead, scoring = answers[0], "played out"
            if dead is None:
                mask, scoring = _referee_dead(game.board, game.events, cfg)
            else:
                mask = np.zeros(cfg.size * cfg.size, dtype=bool)
                mask[list(dead)] = True
                mask = mask.reshape(cfg.size, cfg.size)
            score = area_score(game.board, cfg.komi, mask)
            winner = BLACK if score > 0 else WHITE if score < 0 else None
            reason = "move cap" if ending == "move cap" else "score"
    except _Forfeit as f:
        winner = WHITE if f.colour == BLACK else BLACK
        reason, score, letter = f.reason, None, f.letter
        if reason != "resign":
            scoring = "forfeit" if letter == "F" else "time"
    if score is not None:
        result = format_score(score)
    else:
        result = f"{'B' if winner == BLACK else 'W'}+{'R' if reason == 'resign' else letter}"
    res = GameResult(index, black_engine, winner, label[winner] if winner else "", result, reason, scoring,
                     len(game.events), time.time() - start,
                     used_a=game.used[BLACK if black_engine == "A" else WHITE],
                     used_b=game.used[WHITE if black_engine == "A" else BLACK])
    if cfg.sgf_dir:
        os.makedirs(cfg.sgf_dir, exist_ok=True)
        names = {}
        for c, e in engines.items():
            try:
                names[c] = e.send("name").strip()
            except (GtpError, OSError):
                names[c] = label[c]
        record = Game(size=cfg.size, komi=cfg.komi, events=game.events, result=result,
                      black_name=f"{names[BLACK]} ({label[BLACK]})", white_name=f"{names[WHITE]} ({label[WHITE]})",
                      date=date.today().isoformat())
        res.sgf = os.path.join(cfg.sgf_dir, f"game-{index + 1:03d}.sgf")
        with open(res.sgf, "wb") as fh:
            fh.write(record.to_sgf())
    return res


# ------------------------------------------------------------------------------ the match

def engine_command(command: str) -> list[str]:
    """An engine's shell string as an argument list; a bare `gnugo` runs GNU Go wherever it is
    installed (Debian puts it in /usr/games, often not on PATH)."""
    args = shlex.split(command)
    if args and args[0] == "gnugo" and shutil.which("gnugo") is None and find_gnugo():
        args[0] = find_gnugo()
    return args


def run_match(cfg: MatchConfig) -> MatchSummary:
    """Play cfg.games games, alternating colours, with a progress bar; the summary."""
    from tqdm import tqdm

    engines = {"A": GtpClient(engine_command(cfg.black)), "B": GtpClient(engine_command(cfg.white))}
    results: list[GameResult] = []
    try:
        bar = tqdm(range(cfg.games), desc="match", unit="game", disable=not cfg.progress)
        for i in bar:
            for key, cmd in (("A", cfg.black), ("B", cfg.white)):   # restart a dead engine
                if engines[key].proc.poll() is not None:
                    engines[key] = GtpClient(engine_command(cmd))
            results.append(play_game(i, engines, cfg))
            s = summarise(results)
            bar.set_postfix(A=s.wins_a, B=s.wins_b, last=results[-1].result)
    finally:
        for e in engines.values():
            e.close()
    return summarise(results)


def add_parser(subparsers) -> None:
    """`golois match`: a match between two GTP engines."""
    p = subparsers.add_parser("match", help="play a match between two GTP engines")
    p.add_argument("--black", required=True, help="engine A's command (black in the first game)")
    p.add_argument("--white", required=True, help="engine B's command")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--sgf-dir", default=None, help="write each game there as SGF")
    p.add_argument("--max-moves", type=int, default=None, help="per game (default 3*size*size)")
    p.add_argument("--referee", choices=["auto", "gnugo", "golois"], default="auto",
                   help="who settles dead-stone disputes (auto: GNU Go if installed)")
    p.add_argument("--time-settings", nargs=3, type=float, default=None, metavar=("MAIN", "BYO", "STONES"),
                   help="a clock for both engines, as GTP's time_settings (Canadian byo-yomi); "
                        "overrunning it loses the game on time")
    p.add_argument("--json", default=None, help="also write the summary and games as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the match of the parsed arguments and print the summary."""
    cfg = MatchConfig(black=args.black, white=args.white, games=args.games, size=args.size, komi=args.komi,
                      sgf_dir=args.sgf_dir, max_moves=args.max_moves, referee=args.referee,
                      progress=not args.quiet,
                      time_settings=(args.time_settings[0], args.time_settings[1], int(args.time_settings[2]))
                      if args.time_settings else None)
    try:
        summary = run_match(cfg)
    except OSError as e:  # an engine's program is missing or not executable
        print(f"golois match: cannot start an engine: {e}", file=sys.stderr)
        return 2
    print(summary.report(cfg.black, cfg.white))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(asdict(summary), fh, indent=1)
    return 0
