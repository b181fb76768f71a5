"""GTP version 2 engine: a registry of command handlers over one board.

Handlers live in `CommandSet`s, one per concern (this module holds the core set: protocol,
board, SGF, time); other modules (tactics, solver, play) add theirs, and `GtpEngine` is built
from a list of sets.  A handler is `fn(engine, *args) -> str` and raises `GtpFailure(msg)` to
answer `? msg`; wrong argument counts and any unexpected exception also become `? ...`, so no
line ever crashes the engine.  A handler that answers over time (lz-analyze) returns a `Stream`:
its lines go out as they come, until `engine.interrupted()` says a command (or the end of
input) is waiting, and a genmove's search ends early when `engine.quitting()` says `quit` (or the
end of input) is.  `GtpEngine.serve` reads input on a thread of its own for both, and between
commands runs `engine.idle` (pondering) until the next one arrives.  Start with `GtpEngine.handle`.
"""

from __future__ import annotations

import inspect
import queue
import re
import sys
import threading
import traceback
from dataclasses import dataclass, field
from typing import Callable, TextIO

from golois import __version__

from tactics import coords
from tactics.board import BLACK, WHITE, Board, IllegalMove

from golois.sgf import Event, Game, SgfError, load_game


class GtpFailure(Exception):
    """Answer '? message' to the current command."""


class Stream:
    """A streamed answer: `run(write)` writes lines (each ending in a newline) until the
    engine is interrupted, and returns the answer's last text ('' for none)."""

    def __init__(self, run: Callable[[Callable[[str], None]], str]):
        self.run = run


class CommandSet:
    """A named group of GTP handlers, filled with the `command` decorator."""

    def __init__(self, name: str):
        self.name = name
        self.handlers: dict[str, Callable] = {}

    def command(self, name: str):
        """Register fn(engine, *args) -> str as the handler of GTP command `name`."""
        def register(fn):
            self.handlers[name] = fn
            return fn
        return register


@dataclass
class EngineConfig:
    """What the engine says of itself and how it starts."""
    name: str = "Golois"
    version: str = field(default_factory=lambda: __version__)   # the package's release
    size: int = 19
    komi: float = 7.5


@dataclass
class TimeState:
    """Time settings and the last time_left report, per colour (seconds, stones)."""
    main: float = 0.0
    byo_yomi: float = 0.0
    byo_stones: int = 0
    periods: int = 0              # Japanese byo-yomi (kgs-time_settings byoyomi): periods of one move
    left: dict = field(default_factory=dict)  # colour -> (seconds, stones) of the last time_left


class GtpEngine:
    """The state behind the commands: board, komi, moves played through GTP, time."""

    def __init__(self, command_sets: list[CommandSet], config: EngineConfig | None = None):
        self.config = config or EngineConfig()
        self.handlers: dict[str, Callable] = {}
        for cs in command_sets:
            self.handlers.update(cs.handlers)
        self.board = Board(self.config.size)
        self.komi = self.config.komi
        self.time = TimeState()
        self.game_over = False
        self.quit_requested = False
        self.moves: list[Event] = []      # moves played since the last clear/loadsgf, for undo and printsgf
        self.setup: list[Event] = []      # handicap / loaded setup stones
        self.extra: dict = {}             # room for other command sets' state (player, caches)
        self.interrupted: Callable[[], bool] = lambda: True   # a command waits (serve sets it)
        self.quitting: Callable[[], bool] = lambda: False     # quit or the end of input waits (serve sets it)
        self.idle: Callable[["GtpEngine"], None] | None = None  # run between commands (pondering)
        self._out: TextIO | None = None   # where a Stream writes while serving

    # ---- coordinates ----
    def parse_vertex(self, text: str) -> int | None:
        """GTP vertex to flat index (None for pass); GtpFailure if invalid."""
        try:
            return coords.vertex_to_flat(text, self.board.size)
        except coords.CoordinateError as e:
            raise GtpFailure(f"invalid coordinate: {e}") from None

    def format_vertex(self, flat: int | None) -> str:
        """Flat index (None = pass) to GTP vertex."""
        return coords.format_vertex(None if flat is None else divmod(flat, self.board.size), self.board.size)

    def gnugo_vertex(self, flat: int | None) -> str:
        """`format_vertex` as GNU Go writes it in its reading answers (owl, attack, ladders): a
        pass is `PASS`."""
        return self.format_vertex(flat).upper()

    @staticmethod
    def parse_color(text: str) -> int:
        """GTP colour to BLACK/WHITE; GtpFailure if invalid."""
        t = text.lower()
        if t in ("b", "black"):
            return BLACK
        if t in ("w", "white"):
            return WHITE
        raise GtpFailure(f"invalid color: {text}")

    # ---- state changes shared by handlers ----
    def reset(self, size: int | None = None) -> None:
        """Empty board (optionally of a new size); forget moves, setup and game-over."""
        self.board = Board(size or self.board.size)
        self.moves, self.setup, self.game_over = [], [], False

    def play(self, colour: int, flat: int | None) -> None:
        """Play a move for colour; GtpFailure('illegal move') leaves everything unchanged."""
        try:
            self.board.play(flat, colour)
        except IllegalMove:
            raise GtpFailure("illegal move") from None
        self.moves.append(Event(colour, flat))

    def add_setup(self, colour: int, flat: int) -> None:
        """Place a setup stone (handicap)."""
        try:
            self.board.place(flat, colour)
        except IllegalMove as e:
            raise GtpFailure(str(e)) from None
        self.setup.append(Event(colour, flat, True))

    def as_game(self) -> Game:
        """The current game (setup and GTP moves) as a Game record."""
        return Game(size=self.board.size, komi=self.komi, events=self.setup + self.moves,
                    first_player=self.board.to_move if not self.moves else self.moves[0].colour)

    # ---- the protocol ----
    def handle(self, line: str) -> str | None:
        """One input line -> the full response text ('=id answer\\n\\n' or '?id error\\n\\n'),
        or None for an empty or comment line."""
        parsed = split_command(line)
        if parsed is None:
            return None
        ident, words = parsed
        if not words:
            return f"?{ident} missing command\n\n"
        name, args = words[0], words[1:]
        handler = self.handlers.get(name)
        if handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            _check_arity(handler, args)
            answer = handler(self, *args)
        except GtpFailure as e:
            return f"?{ident} {e}\n\n"
        except Exception as e:  # a bug must not kill a game on a server: report it, stay up
            traceback.print_exc(file=sys.stderr)
            return f"?{ident} internal error: {type(e).__name__}: {e}\n\n"
        if isinstance(answer, Stream):
            return self._stream(ident, answer)
        answer = "" if answer is None else str(answer)
        return f"={ident} {answer}".rstrip(" ") + "\n\n"

    def _stream(self, ident: str, stream: Stream) -> str:
        """A Stream's answer: '=id' and its lines, written as they come while serving (the text
        left to write is returned), or collected into the answer."""
        kept: list[str] = []

        def write(line: str) -> None:
            if self._out is not None:
                self._out.write(line)
                self._out.flush()
            else:
                kept.append(line)
        write(f"={ident}\n")
        try:
            last = stream.run(write) or ""
        except GtpFailure as e:                    # the '=' is out: the reason goes on a line
            last = f"# {e}"
        except Exception as e:  # noqa: BLE001 -- as in handle: report, stay up
            traceback.print_exc(file=sys.stderr)
            last = f"# internal error: {type(e).__name__}: {e}"
        return "".join(kept) + (last.rstrip("\n") + "\n" if last else "") + "\n"

    def serve(self, instream: TextIO = sys.stdin, outstream: TextIO = sys.stdout) -> None:
        """Answer commands line by line until quit or end of input.  Input is read on a thread
        of its own, so that a streamed answer or `idle` stops as soon as a line arrives."""
        inbox: queue.Queue = queue.Queue()

        def read() -> None:
            for line in instream:
                inbox.put(line)
            inbox.put(None)                        # end of input
        threading.Thread(target=read, daemon=True, name="gtp-input").start()

        def quitting() -> bool:
            with inbox.mutex:
                return any(is_quit(waiting) for waiting in inbox.queue)
        self.interrupted = lambda: not inbox.empty()
        self.quitting = quitting
        self._out = outstream
        try:
            while True:
                line = inbox.get()
                if line is None:
                    break
                response = self.handle(line)
                if response is not None:
                    outstream.write(response)
                    outstream.flush()
                if self.quit_requested:
                    break
                if self.idle is not None and inbox.empty():
                    self.idle(self)
        finally:
            self._out = None
            self.interrupted = lambda: True
            self.quitting = lambda: False


def split_command(line: str) -> tuple[str, list[str]] | None:
    """A GTP input line as (id, words): control characters and the comment dropped, tabs read
    as spaces, the id '' when there is none; None for an empty or comment line."""
    line = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", line.split("#", 1)[0]).replace("\t", " ").strip()
    if not line:
        return None
    words = line.split()
    if words[0].isdigit():
        return words[0], words[1:]
    return "", words


def is_quit(line: str | None) -> bool:
    """The end of input (None) or a `quit` command, with or without an id."""
    if line is None:
        return True
    parsed = split_command(line)
    return parsed is not None and parsed[1][:1] == ["quit"]


def _check_arity(handler: Callable, args: list[str]) -> None:
    params = list(inspect.signature(handler).parameters.values())[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        required = sum(1 for p in params if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty)
        if len(args) < required:
            raise GtpFailure(f"expected at least {required} arguments")
        return
    required = sum(1 for p in params if p.default is p.empty)
    if not required <= len(args) <= len(params):
        want = str(required) if required == len(params) else f"{required} to {len(params)}"
        raise GtpFailure(f"expected {want} arguments, got {len(args)}")


# ------------------------------------------------------------------------------ core commands

CORE = CommandSet("core")


@CORE.command("protocol_version")
def protocol_version(engine):
    return "2"


@CORE.command("name")
def name(engine):
    return engine.config.name


@CORE.command("version")
def version(engine):
    return engine.config.version


@CORE.command("known_command")
def known_command(engine, command):
    return "true" if command in engine.handlers else "false"


@CORE.command("list_commands")
def list_commands(engine):
    return "\n".join(sorted(engine.handlers))


@CORE.command("quit")
def quit_(engine):
    engine.quit_requested = True
    return ""


@CORE.command("boardsize")
def boardsize(engine, size):
    if not size.isdigit() or not 2 <= int(size) <= 25:
        raise GtpFailure("unacceptable size")
    engine.reset(int(size))
    return ""


@CORE.command("clear_board")
def clear_board(engine):
    engine.reset()
    return ""


@CORE.command("komi")
def komi(engine, value):
    try:
        engine.komi = float(value)
    except ValueError:
        raise GtpFailure("syntax error") from None
    return ""


@CORE.command("play")
def play(engine, colour, vertex):
    engine.play(engine.parse_color(colour), engine.parse_vertex(vertex))
    return ""


@CORE.command("undo")
def undo(engine):
    if not engine.moves:
        raise GtpFailure("cannot undo")
    engine.board.undo()
    engine.moves.pop()
    engine.game_over = False
    return ""


@CORE.command("is_legal")
def is_legal(engine, colour, vertex):
    return "1" if engine.board.is_legal(engine.parse_vertex(vertex), engine.parse_color(colour)) else "0"


@CORE.command("list_stones")
def list_stones(engine, colour):
    c, n = engine.parse_color(colour), engine.board.size
    arr = engine.board.to_array().ravel()
    return " ".join(engine.format_vertex(int(i)) for i in range(n * n) if arr[i] == c)


@CORE.command("color")
def color(engine, vertex):
    flat = engine.parse_vertex(vertex)
    if flat is None:
        raise GtpFailure("invalid coordinate")
    return ("empty", "black", "white")[engine.board.get(flat)]


@CORE.command("showboard")
def showboard(engine):
    return "\n" + str(engine.board)


@CORE.command("captures")
def captures(engine, colour):
    return str(engine.board.prisoners[engine.parse_color(colour)])


def fixed_points(size: int, count: int) -> list[int]:
    edge = 3 if size >= 13 else 2
    lo, hi, mid = edge, size - 1 - edge, size // 2
    corners = [(hi, lo), (lo, hi), (lo, lo), (hi, hi)]
    sides = [(mid, lo), (mid, hi), (lo, mid), (hi, mid)]
    if count <= 4:
        pts = corners[:count]
    elif count % 2:
        pts = corners + sides[: count - 5] + [(mid, mid)]
    else:
        pts = corners + sides[: count - 4]
    return sorted(r * size + c for r, c in pts)  # GNU Go's order: top to bottom


def check_handicap(engine, count: str, limit: int | None = None) -> int:
    """The handicap count, checked: a number from 2 to limit (default: 9 on odd boards of 7 and
    up, else 4, as for fixed_handicap) on an empty board; GtpFailure otherwise."""
    if not count.isdigit():
        raise GtpFailure("syntax error")
    n = int(count)
    if limit is None:
        limit = 9 if engine.board.size % 2 and engine.board.size >= 7 else 4
    if n < 2 or n > limit:
        raise GtpFailure("invalid handicap")
    if engine.moves or engine.setup or engine.board.to_array().any():
        raise GtpFailure("board not empty")
    return n


def place_handicap(engine, points) -> str:
    """Put black handicap stones on points, white to play; the vertices as GTP answers them."""
    for p in points:
        engine.add_setup(BLACK, p)
    engine.board.to_move = WHITE
    return " ".join(engine.format_vertex(p) for p in points)


@CORE.command("fixed_handicap")
def fixed_handicap(engine, count):
    n = check_handicap(engine, count)
    return place_handicap(engine, fixed_points(engine.board.size, n))


@CORE.command("set_free_handicap")
def set_free_handicap(engine, *vertices):
    if engine.moves or engine.setup or engine.board.to_array().any():
        raise GtpFailure("board not empty")
    points = [engine.parse_vertex(v) for v in vertices]
    if len(points) < 2 or None in points or len(set(points)) != len(points):
        raise GtpFailure("bad vertex list")
    place_handicap(engine, points)
    return ""


@CORE.command("loadsgf")
def loadsgf(engine, path, move_number=None):
    """`loadsgf FILE [N | VERTEX]`: the game before move N, or before the first move at VERTEX
    (the whole game when none is played there), as GNU Go's."""
    try:
        game = load_game(path)
        n = None
        if move_number is not None and move_number.isdigit():
            n = max(int(move_number) - 1, 0)
            n = min(n, len(game.moves))
        elif move_number is not None:
            try:
                flat = coords.vertex_to_flat(move_number, game.size)
            except coords.CoordinateError:
                raise GtpFailure("move number or vertex expected") from None
            n = next((i for i, e in enumerate(game.moves) if e.point == flat), None)
        board = game.board_at(n)
    except SgfError as e:
        raise GtpFailure(f"cannot load file: {e}") from None
    engine.board, engine.komi = board, game.komi
    moves = game.moves[: len(game.moves) if n is None else n]
    engine.setup, engine.moves, engine.game_over = game.setup_at(n), list(moves), False
    return "black" if board.to_move == BLACK else "white"


@CORE.command("printsgf")
def printsgf(engine, path=None):
    data = engine.as_game().to_sgf()
    if path is None:
        return data.decode("utf-8").strip()
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise GtpFailure(f"cannot write file: {e.strerror}") from None
    return ""


@CORE.command("time_settings")
def time_settings(engine, main_time, byo_time, byo_stones):
    try:
        engine.time.main, engine.time.byo_yomi, engine.time.byo_stones = float(main_time), float(byo_time), int(byo_stones)
        engine.time.periods = 0
    except ValueError:
        raise GtpFailure("syntax error") from None
    return ""


@CORE.command("kgs-time_settings")
def kgs_time_settings(engine, system, *args):
    try:
        engine.time.periods = 0
        if system == "none":
            engine.time.main = engine.time.byo_yomi = engine.time.byo_stones = 0
        elif system == "absolute":
            engine.time.main, engine.time.byo_yomi, engine.time.byo_stones = float(args[0]), 0.0, 0
        elif system == "byoyomi":  # main, period time, periods: Japanese byo-yomi, a period a move
            engine.time.main, engine.time.byo_yomi, engine.time.byo_stones = float(args[0]), float(args[1]), 1
            engine.time.periods = int(args[2])
        elif system == "canadian":
            engine.time.main, engine.time.byo_yomi, engine.time.byo_stones = float(args[0]), float(args[1]), int(args[2])
        else:
            raise GtpFailure(f"unknown time system {system}")
    except (IndexError, ValueError):
        raise GtpFailure("syntax error") from None
    return ""


@CORE.command("time_left")
def time_left(engine, colour, seconds, stones):
    try:
        engine.time.left[engine.parse_color(colour)] = (float(seconds), int(stones))
    except ValueError:
        raise GtpFailure("syntax error") from None
    return ""


@CORE.command("kgs-game_over")
def kgs_game_over(engine):
    engine.game_over = True
    return ""
