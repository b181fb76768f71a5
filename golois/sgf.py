"""SGF games through sgfmill: load a record, replay it to any move, write positions and games back.

`load_game(path)` / `parse_game(bytes, source)` give a `Game`: its size, komi, handicap, players,
setup stones and the sequence of events (moves, passes, and setup stones added mid-game, which
some problem files use).  `game.board_at(n)` is the position after the first n moves (so GNU Go's
`loadsgf FILE N`, "the position before move N", is `board_at(N - 1)`).  `game.replay()` walks
the moves on one board, yielding each position before its move: the fast path for datasets.

Every failure is an `SgfError` naming the source and, for a bad move, its number (an illegal
setup names the stones it leaves without liberties, by GTP vertex); a rejected move never
leaves a half-changed board behind.  Start with `parse_game`.

A file may hold several games (FF[4]'s collection: problem books often come as one file):
`collection_size(data)` counts them and `collection_game(data, k, source)` gives the kth alone
(the file is parsed once for all its games: `_game_trees`); a malformed game is counted, and
asking for it is an SgfError (sgfmill cannot tell the games after it apart).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterator

from sgfmill import sgf, sgf_grammar

from tactics import coords
from tactics.board import BLACK, EMPTY, WHITE, Board, IllegalMove

_COLOURS = {"b": BLACK, "w": WHITE}
_NAMES = {BLACK: "b", WHITE: "w"}


class SgfError(ValueError):
    """A malformed record, an unsupported feature, or an illegal move in a record."""

    def __init__(self, source: str, reason: str, move_number: int | None = None):
        self.source, self.reason, self.move_number = source, reason, move_number
        where = f"{source}: move {move_number}: " if move_number is not None else f"{source}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class Event:
    """One step of a record: a move (flat, or None for a pass) or a setup stone (colour EMPTY
    removes a stone)."""
    colour: int
    point: int | None
    setup: bool = False


@dataclass
class Game:
    """A game record: root properties and the main line as events."""
    size: int = 19
    komi: float = 0.0
    handicap: int = 0
    first_player: int = BLACK
    black_rank: str = ""
    white_rank: str = ""
    black_name: str = ""
    white_name: str = ""
    result: str = ""
    date: str = ""
    events: list[Event] = field(default_factory=list)
    source: str = "<sgf>"

    @property
    def moves(self) -> list[Event]:
        """The moves and passes, in order (setup events left out)."""
        return [e for e in self.events if not e.setup]

    @property
    def has_setup(self) -> bool:
        """Setup stones anywhere (handicap stones included)."""
        return any(e.setup for e in self.events)

    def to_move_at(self, n: int) -> int:
        """Colour to play after the first n moves."""
        moves = self.moves
        if n < len(moves):
            return moves[n].colour
        if moves and n > 0:
            return 3 - moves[min(n, len(moves)) - 1].colour
        return self.first_player

    def board_at(self, n: int | None = None) -> Board:
        """Position after the first n moves (all of them if None), setup stones applied and the
        side to move set.  Raises SgfError for an illegal move or setup."""
        board = Board(self.size)
        for _ in self._apply(board, n):
            pass
        board.to_move = self.to_move_at(len(self.moves) if n is None else n)
        return board

    def setup_at(self, n: int | None = None) -> list[Event]:
        """The setup events of the position after the first n moves (all if None): those that
        `board_at(n)` applies, the setup set after move n left out."""
        out, played = [], 0
        for event in self.events:
            if event.setup:
                out.append(event)
            elif n is not None and played >= n:
                break
            else:
                played += 1
        return out

    def replay(self, board: Board | None = None) -> Iterator[tuple[Board, int, Event]]:
        """Yield (board before the move, move number from 1, the move) for every move, on one
        board that the caller must not keep between steps (copy it if needed)."""
        board = board if board is not None else Board(self.size)
        yield from self._apply(board, None, yield_moves=True)

    def _apply(self, board: Board, n: int | None, yield_moves: bool = False):
        played = 0
        for event in self.events:
            if event.setup:
                try:
                    board.place(event.point, event.colour)
                except IllegalMove:
                    after = f" after move {played}" if played else ""
                    raise SgfError(self.source, f"illegal setup{after}: {_setup_error(board, event)}") from None
                continue
            if n is not None and played >= n:
                return
            if yield_moves:
                board.to_move = event.colour
                yield board, played + 1, event
            try:
                board.play(event.point, event.colour)
            except IllegalMove as e:
                raise SgfError(self.source, f"illegal move {self._vertex(event)}: {e}", played + 1) from None
            played += 1
        if n is not None and played < n:
            raise SgfError(self.source, f"the record has only {played} moves, not {n}")

    def _vertex(self, event: Event) -> str:
        rc = None if event.point is None else divmod(event.point, self.size)
        return f"{_NAMES[event.colour].upper()} {coords.format_vertex(rc, self.size)}"

    def to_sgf(self) -> bytes:
        """The game as SGF FF[4] bytes (main line only)."""
        game = sgf.Sgf_game(self.size)
        root = game.get_root()
        root.set("KM", self.komi)
        if self.handicap:
            root.set("HA", self.handicap)
        for prop, value in (("BR", self.black_rank), ("WR", self.white_rank), ("PB", self.black_name),
                            ("PW", self.white_name), ("RE", self.result), ("DT", self.date)):
            if value:
                root.set(prop, value)
        node = root
        pending: dict[str, set] = {}
        for event in self.events:
            rc = None if event.point is None else coords.to_sgfmill(divmod(event.point, self.size), self.size)
            if event.setup:
                pending.setdefault({BLACK: "AB", WHITE: "AW", EMPTY: "AE"}[event.colour], set()).add(rc)
                continue
            if pending:
                target = node
                for prop, points in pending.items():
                    target.set(prop, points)
                pending = {}
            node = node.new_child()
            node.set_move(_NAMES[event.colour], rc)
        if pending:
            for prop, points in pending.items():
                node.set(prop, points)
        if not any(not e.setup for e in self.events) and self.first_player:
            root.set("PL", _NAMES[self.first_player])
        return game.serialise()


def _setup_error(board: Board, event: Event) -> str:
    """Why `board.place` refused the setup stone `event`: the string it leaves without liberties
    (the stone's own, else a neighbouring one of the other colour), named by GTP vertices; for
    another's, the setup stone that takes its last liberty too."""
    n, adj, p = board.size, coords.neighbours(board.size), event.point
    colour = board.to_array().ravel().tolist()
    colour[p] = event.colour

    def without_liberties(q):
        stones, todo = {q}, [q]
        while todo:
            for r in adj[todo.pop()]:
                if colour[r] == EMPTY:
                    return None
                if colour[r] == colour[q] and r not in stones:
                    stones.add(r)
                    todo.append(r)
        return sorted(stones)

    vertex = lambda q: coords.format_vertex(divmod(q, n), n)            # noqa: E731
    for q in [p] + [r for r in adj[p] if colour[r] == 3 - event.colour]:
        dead = without_liberties(q)
        if dead:
            name = {BLACK: "black", WHITE: "white"}[colour[q]]
            what = (f"the {name} stone at {vertex(q)} has" if len(dead) == 1 else
                    f"the {name} stones at {', '.join(vertex(r) for r in dead)} have")
            if p in dead:
                return f"{what} no liberties"
            point = coords.format_sgf_point(divmod(p, n), n)
            return f"{what} no liberties once A{_NAMES[event.colour].upper()}[{point}] ({vertex(p)}) is set"
    return f"the stone at {vertex(p)} leaves a string without liberties"


def parse_game(data: bytes | str, source: str = "<sgf>", setup_only: bool = False) -> Game:
    """Parse one SGF game (the main line).  setup_only: the main line up to its first move
    only, that move's colour (the first player without PL) but not its point: a problem's
    setup position, whose moves (the answer) are never played, so that a malformed one is no
    error.  Raises SgfError."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        tree = sgf.Sgf_game.from_bytes(data)
    except ValueError as e:
        raise SgfError(source, f"malformed SGF: {e}") from None
    size = tree.get_size()
    if not 2 <= size <= 25:
        raise SgfError(source, f"unsupported board size {size}")
    root = tree.get_root()
    game = Game(size=size, source=source)
    try:
        game.komi = float(tree.get_komi())
    except ValueError:
        game.komi = 0.0
    try:
        game.handicap = int(tree.get_handicap() or 0)
    except ValueError:
        raise SgfError(source, "malformed HA property") from None
    for prop, attr in (("BR", "black_rank"), ("WR", "white_rank"), ("PB", "black_name"),
                       ("PW", "white_name"), ("RE", "result"), ("DT", "date")):
        if root.has_property(prop):
            try:
                setattr(game, attr, str(root.get(prop)))
            except ValueError:
                pass
    first_mover = None
    try:
        for node in tree.get_main_sequence():
            game.events.extend(_setup_events(node, size))
            prop = "B" if node.has_property("B") else "W"
            if setup_only and node.has_property(prop):
                first_mover = _COLOURS[prop.lower()]
                break
            colour, move = _property(node, prop, node.get_move)
            if colour is not None:
                point = None if move is None else coords.to_flat(*coords.from_sgfmill(move, size), size)
                game.events.append(Event(_COLOURS[colour], point))
        if root.has_property("PL"):
            game.first_player = _COLOURS[_property(root, "PL").lower()]
        elif game.moves or first_mover:
            game.first_player = game.moves[0].colour if game.moves else first_mover
        elif game.handicap or any(e.setup and e.colour == BLACK for e in game.events):
            game.first_player = WHITE if game.handicap else BLACK
    except (ValueError, KeyError) as e:
        raise SgfError(source, f"malformed SGF: {e}") from None
    return game


def _setup_events(node, size: int) -> list[Event]:
    """The node's AE, AB and AW stones as setup events.  Raises ValueError for a point set
    twice in the node (FF[4] forbids it; which colour should win is anyone's guess)."""
    events = []
    seen = {}
    for prop, colour in (("AE", EMPTY), ("AB", BLACK), ("AW", WHITE)):
        if node.has_property(prop):
            for rc in sorted(_property(node, prop)):
                point = coords.to_flat(*coords.from_sgfmill(rc, size), size)
                if point in seen:
                    vertex = coords.format_vertex(coords.from_sgfmill(rc, size), size)
                    raise ValueError(f"{vertex} set by both {seen[point]} and {prop} in one node")
                seen[point] = prop
                events.append(Event(colour, point, True))
    return events


def _property(node, prop: str, read=None):
    """`node.get(prop)` (or `read()`), with sgfmill's bare ValueError (an empty message for a
    point off the board) turned into one that names the property and its raw values."""
    try:
        return read() if read is not None else node.get(prop)
    except ValueError:
        raw = "".join(f"[{v.decode('utf-8', 'replace')}]" for v in node.get_raw_list(prop))
        raise ValueError(f"bad property value {prop}{raw}") from None


def load_game(path) -> Game:
    """Read and parse an SGF file.  Raises SgfError (also for an unreadable file)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SgfError(str(path), f"cannot read: {e.strerror}") from None
    return parse_game(data, str(path))


@functools.lru_cache(maxsize=4)
def _game_trees(data: bytes) -> tuple:
    """(the game trees of an SGF collection that parse (sgfmill's coarse trees), None or why
    the next game does not), parsed once for the same bytes: a book's games are read one by
    one, each needing the whole file parsed.  sgfmill cannot find where a game after a
    malformed one starts, so the trees end there."""
    try:
        return tuple(sgf_grammar.parse_sgf_collection(data)), None
    except ValueError:
        pass
    trees, position = [], 0           # again game by game: the good ones, and the bad one's error
    while True:
        tokens, end = sgf_grammar.tokenise(data, position)
        if not tokens:
            return tuple(trees), None if trees else "no SGF data found"
        try:
            trees.append(sgf_grammar.parse_sgf_game(data[position:end]))
        except ValueError as e:
            return tuple(trees), str(e)
        position = end


def collection_size(data: bytes) -> int:
    """How many games an SGF collection holds (1 for a plain record): the games that parse and
    a malformed one after them, counted as one (`collection_game` says what is wrong with it;
    the file's games after it cannot be told apart); 1 for data with no game that parses (its
    error then comes from `parse_game`)."""
    trees, error = _game_trees(data)
    return max(len(trees) + (error is not None), 1)


def collection_game(data: bytes, k: int, source: str = "<sgf>") -> bytes:
    """The kth game (1-based) of an SGF collection, alone, as SGF bytes.  Raises SgfError (for
    the malformed game `collection_size` counts too: "game K: malformed SGF: ...")."""
    trees, error = _game_trees(data)
    if error is not None and k == len(trees) + 1:
        raise SgfError(source, f"game {k}: malformed SGF: {error} (no game after it is read)")
    if not 1 <= k <= len(trees):
        raise SgfError(source, f"game {k}: the file holds {collection_size(data)} game(s)")
    try:
        return sgf.Sgf_game.from_coarse_game_tree(trees[k - 1]).serialise()
    except ValueError as e:
        raise SgfError(source, f"game {k}: {e}") from None


def position_to_sgf(board: Board, to_move: int | None = None, comment: str = "") -> bytes:
    """The board's stones as an SGF FF[4] setup position (AB/AW, PL)."""
    n = board.size
    game = sgf.Sgf_game(n)
    root = game.get_root()
    arr = board.to_array()
    for colour, prop in ((BLACK, "AB"), (WHITE, "AW")):
        points = {coords.to_sgfmill((r, c), n) for r in range(n) for c in range(n) if arr[r, c] == colour}
        if points:
            root.set(prop, points)
    root.set("PL", _NAMES[to_move or board.to_move])
    if comment:
        root.set("C", comment)
    return game.serialise()
