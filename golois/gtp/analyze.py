"""GTP analysis from the tree search: Leela Zero's and KataGo's analyze commands, GoGui's
search displays, and pondering.

`COMMANDS` (the "analyze" set) holds
- `lz-analyze [colour] [interval] [key value ...]` (Lizzie, Sabaki) and `kata-analyze` (Sabaki,
  KaTrain's GTP mode): the search runs until the next command arrives; every `interval`
  centiseconds one line of `info move M visits N winrate W prior P lcb L order K pv ...` entries
  goes out, one entry per searched move, best first (Leela Zero: win rate, prior and bound in
  ten-thousandths; KataGo: in [0, 1], with `utility`, no score estimates: the network has none).
  Keys: `interval`, `maxmoves` (at most this many entries), `avoid` / `allow COLOUR VERTICES
  DEPTH` (at the root; the depth is read as 1); `minmoves`, `ownership` and KataGo's other
  report keys are accepted and ignored;
- `lz-genmove_analyze` / `kata-genmove_analyze colour [interval]`: genmove with the same lines
  while it searches, then `play MOVE`;
- `golois-search_gfx` (GoGui): the search's visits as a heat map, win rates as labels, the
  principal variation.
The searcher is the engine's `SearchPlayer` (play.py --search mcts), or one made around the fast
bot for analysis alone.  `enable_pondering(engine)` makes the engine search the position the
opponent is thinking about between commands.  Start with `lz_analyze`.
"""

from __future__ import annotations

import numpy as np

from tactics.board import BLACK, WHITE

from golois.gtp.play import get_player, play_decision
from golois.gtp.protocol import CommandSet, GtpFailure, Stream
from golois.search.mcts import SearchResult
from golois.search.player import SearchPlayer

COMMANDS = CommandSet("analyze")


def searcher(engine) -> SearchPlayer:
    """The engine's search player, or one around its fast bot kept for analysis."""
    player = get_player(engine)
    if isinstance(player, SearchPlayer):
        return player
    kept = engine.extra.get("analysis")
    if kept is None or kept[0] is not player:
        kept = (player, SearchPlayer(player))
        engine.extra["analysis"] = kept
    return kept[1]


# ------------------------------------------------------------------------------ arguments

class Request:
    """The parsed arguments of an analyze command."""

    def __init__(self, engine, args, default_colour: int):
        self.colour, self.interval = default_colour, 0.0
        self.maxmoves = 0
        self.avoid, self.allow = set(), None
        words = [a.lower() for a in args]
        i = 0
        if i < len(words) and words[i] in ("b", "w", "black", "white"):
            self.colour = engine.parse_color(words[i])
            i += 1
        if i < len(words) and _number(words[i]):
            self.interval = float(words[i]) / 100
            i += 1
        while i < len(words):
            key = words[i]
            if key in ("interval", "minmoves", "maxmoves", "ownership", "ownershipstdev", "movesownership",
                       "pvvisits", "rootinfo", "pvedgevisits", "reportduringsearchevery"):
                if i + 1 >= len(words):
                    raise GtpFailure(f"{key} needs a value")
                value = words[i + 1]
                if key == "interval":
                    self.interval = _float(value) / 100
                elif key == "maxmoves":
                    self.maxmoves = int(_float(value))
                i += 2
            elif key in ("avoid", "allow"):
                if i + 3 >= len(words):
                    raise GtpFailure(f"{key} needs a colour, vertices and a depth")
                colour = engine.parse_color(words[i + 1])
                points = {engine.parse_vertex(v) for v in words[i + 2].split(",")} - {None}
                if colour == self.colour:
                    if key == "avoid":
                        self.avoid |= points
                    else:
                        self.allow = (self.allow or set()) | points
                i += 4
            else:
                raise GtpFailure(f"unknown analyze argument {words[i]}")

    def restrict(self, size: int):
        """bool [n*n] of the root moves the request allows, or None for all."""
        if not self.avoid and self.allow is None:
            return None
        mask = np.ones(size * size, dtype=bool) if self.allow is None else np.zeros(size * size, dtype=bool)
        if self.allow is not None:
            mask[list(self.allow)] = True
        if self.avoid:
            mask[list(self.avoid)] = False
        return mask


def _number(word: str) -> bool:
    try:
        float(word)
        return True
    except ValueError:
        return False


def _float(word: str) -> float:
    try:
        return float(word)
    except ValueError:
        raise GtpFailure(f"not a number: {word}") from None


# ------------------------------------------------------------------------------ info lines

def info_line(engine, search, style: str, request: Request | None = None) -> str:
    """One report of the root's moves in Leela Zero's ("lz") or KataGo's ("kata") format."""
    candidates = search.candidates()
    if request is not None:
        if request.maxmoves:
            candidates = candidates[:request.maxmoves]
    out = []
    for order, c in enumerate(candidates):
        pv = " ".join(engine.format_vertex(m) for m in c.pv)
        move = engine.format_vertex(c.move)
        if style == "lz":
            out.append(f"info move {move} visits {c.visits} winrate {round(10000 * c.winrate)} "
                       f"prior {round(10000 * c.prior)} lcb {round(10000 * c.lcb)} order {order} pv {pv}")
        else:
            out.append(f"info move {move} visits {c.visits} utility {2 * c.winrate - 1:.6f} winrate {c.winrate:.6f} "
                       f"prior {c.prior:.6f} lcb {c.lcb:.6f} utilityLcb {2 * c.lcb - 1:.6f} order {order} pv {pv}")
    return " ".join(out) + "\n" if out else ""


def _analysis(engine, args, style: str) -> Stream:
    board = engine.board
    request = Request(engine, args, board.to_move)
    player = searcher(engine)
    restrict = request.restrict(board.size)

    def run(write) -> str:
        def report(search):
            line = info_line(engine, search, style, request)
            if line:
                write(line)
        player.analyse(board, request.colour, engine.komi, stop=engine.interrupted, report=report if request.interval else None,
                       report_every=request.interval, restrict=restrict)
        if not request.interval:
            return info_line(engine, player.search, style, request)
        return ""
    return Stream(run)


@COMMANDS.command("lz-analyze")
def lz_analyze(engine, *args):
    return _analysis(engine, args, "lz")


@COMMANDS.command("kata-analyze")
def kata_analyze(engine, *args):
    return _analysis(engine, args, "kata")


def _genmove_analysis(engine, args, style: str) -> Stream:
    if not args:
        raise GtpFailure("missing colour")
    colour = engine.parse_color(args[0])
    request = Request(engine, args[1:], colour)
    player = get_player(engine)
    if not isinstance(player, SearchPlayer):
        raise GtpFailure("genmove analysis needs the tree search (play.py --search mcts)")

    def run(write) -> str:
        def report(search):
            line = info_line(engine, search, style, request)
            if line:
                write(line)
        move = play_decision(engine, colour, report=report if request.interval else None,
                             report_every=request.interval)
        return f"play {move}"
    return Stream(run)


@COMMANDS.command("lz-genmove_analyze")
def lz_genmove_analyze(engine, *args):
    return _genmove_analysis(engine, args, "lz")


@COMMANDS.command("kata-genmove_analyze")
def kata_genmove_analyze(engine, *args):
    return _genmove_analysis(engine, args, "kata")


# ------------------------------------------------------------------------------ GoGui

@COMMANDS.command("golois-search_gfx")
def search_gfx(engine, colour=None):
    """GoGui gfx of a search of the position (the search's budget): visits as colours, win
    rates of the best moves as labels, the principal variation."""
    board = engine.board
    c = board.to_move if colour is None else engine.parse_color(colour)
    player = searcher(engine)
    cfg = player.settings.search
    result: SearchResult = player.analyse(board, c, engine.komi, seconds=cfg.seconds, visits=cfg.visits or 400)
    if not result.candidates:
        return "TEXT no move to search"
    top = max(x.visits for x in result.candidates)
    lines = []
    for x in result.candidates:
        if x.move is None:
            continue
        t = (x.visits / top) ** 0.5
        lines.append(f"COLOR #ff{int(255 * (1 - t)):02x}00 {engine.format_vertex(x.move)}")
    best = result.candidates[0]
    lines.append("LABEL " + " ".join(f"{engine.format_vertex(x.move)} {100 * x.winrate:.0f}"
                                     for x in result.candidates[:8] if x.move is not None))
    names = {BLACK: "b", WHITE: "w"}
    colours = [c if k % 2 == 0 else (WHITE if c == BLACK else BLACK) for k in range(len(best.pv))]
    lines.append("VAR " + " ".join(f"{names[col]} {engine.format_vertex(m)}" for col, m in zip(colours, best.pv)))
    lines.append(f"TEXT {result.visits} visits in {result.seconds:.1f} s, win rate {100 * result.winrate:.1f}%")
    return "\n".join(lines)


ANALYZE = [("gfx", "Search (visits, win rates, variation)", "golois-search_gfx %c")]


# ------------------------------------------------------------------------------ pondering

def enable_pondering(engine) -> None:
    """Between commands, while the opponent of the engine's last genmove is to move, search
    their position (the tree is kept for the next genmove); any command stops it at once."""
    def ponder(engine) -> None:
        player = get_player(engine)
        mine = engine.extra.get("genmove_colour")
        board = engine.board
        if not isinstance(player, SearchPlayer) or mine is None or board.to_move == mine or engine.game_over:
            return
        player.analyse(board, board.to_move, engine.komi, stop=engine.interrupted)
    engine.idle = ponder

