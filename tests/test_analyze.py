"""golois.gtp.analyze: lz-analyze / kata-analyze lines in the formats Lizzie, Sabaki and KaTrain
parse, genmove analysis, GoGui's search display, and pondering and streamed answers through
`GtpEngine.serve` (commands arriving during a search, quit, end of input)."""

import io
import os
import re
import threading
import time

from golois.gtp.analyze import enable_pondering
from golois.gtp.engine import build_engine
from golois.gtp.play import install_player
from golois.player.player import Player, PlayerConfig
from golois.search.mcts import SearchConfig
from golois.search.player import SearchPlayer, SearchSettings

LZ_ENTRY = re.compile(r"info move ([A-HJ-T]\d+|pass) visits (\d+) winrate (\d+) prior (\d+) lcb (\d+) order (\d+) pv( [A-HJ-T]\d+| pass)+")
KATA_ENTRY = re.compile(r"info move ([A-HJ-T]\d+|pass) visits (\d+) utility (-?[\d.]+) winrate ([\d.]+) prior ([\d.]+) "
                        r"lcb ([\d.]+) utilityLcb (-?[\d.]+) order (\d+) pv( [A-HJ-T]\d+| pass)+")


def engine_with_search(visits=40, size=9):
    e = build_engine()
    cfg = PlayerConfig(playouts=8, endgame_playouts=16, check_playouts=8)
    player = SearchPlayer(Player(config=cfg), SearchSettings(search=SearchConfig(visits=visits, batch=4)))
    install_player(e, player)
    e.handle(f"boardsize {size}")
    return e, player


def after_visits(player, visits):
    """An `interrupted` that says a command waits once the tree has `visits` visits."""
    return lambda: player.search.root is not None and int(player.search.root.n.sum()) >= visits


def test_lz_analyze_lines():
    e, player = engine_with_search()
    e.interrupted = after_visits(player, 60)
    out = e.handle("lz-analyze b 1")
    assert out.startswith("=\n") and out.endswith("\n\n")
    lines = [line for line in out.split("\n")[1:] if line]
    assert lines and all(line.startswith("info move ") for line in lines)
    entries = re.findall(r"info move .*?(?= info move |$)", lines[-1])
    assert all(LZ_ENTRY.fullmatch(x) for x in entries), entries[:2]
    visits = [int(LZ_ENTRY.fullmatch(x).group(2)) for x in entries]
    assert visits == sorted(visits, reverse=True)
    assert all(0 <= int(LZ_ENTRY.fullmatch(x).group(3)) <= 10000 for x in entries)


def test_kata_analyze_keys_and_limits():
    e, player = engine_with_search()
    e.interrupted = after_visits(player, 60)
    out = e.handle("7 kata-analyze w interval 1 maxmoves 3 ownership true")
    assert out.startswith("=7\n")
    last = [line for line in out.split("\n") if line.startswith("info")][-1]
    entries = re.findall(r"info move .*?(?= info move |$)", last)
    assert 1 <= len(entries) <= 3 and all(KATA_ENTRY.fullmatch(x) for x in entries)
    # avoid: the move never appears at the root
    e.interrupted = after_visits(player, 40)
    out = e.handle("lz-analyze b interval 1 avoid b E5,D4 1")
    assert " move E5 " not in out and " move D4 " not in out
    assert e.handle("lz-analyze b interval").startswith("?")
    assert e.handle("lz-analyze b frobnicate 3").startswith("?")


def test_genmove_analyze_plays_its_move():
    e, player = engine_with_search()
    out = e.handle("lz-genmove_analyze b 1")
    assert out.startswith("=\n") and out.endswith("\n\n")
    last = out.strip().split("\n")[-1]
    assert last.startswith("play ")
    assert len(e.moves) == 1 and e.format_vertex(e.moves[0].point) == last.split()[1]
    assert e.handle("kata-genmove_analyze w 1").strip().split("\n")[-1].startswith("play ")


def test_gogui_search_display():
    e, _ = engine_with_search()
    assert "golois-search_gfx" in e.handle("gogui-analyze_commands")
    out = e.handle("golois-search_gfx b")
    assert "LABEL " in out and "VAR b " in out and "TEXT " in out


class Pipe:
    """A GTP client on the other side of `serve`: lines go in as they are written."""

    def __init__(self, engine):
        r, w = os.pipe()
        self.inp, self.writer = os.fdopen(r, "r"), os.fdopen(w, "w")
        self.out = io.StringIO()
        self.thread = threading.Thread(target=engine.serve, args=(self.inp, self.out), daemon=True)
        self.thread.start()

    def send(self, text):
        self.writer.write(text)
        self.writer.flush()

    def wait_for(self, pattern, timeout=60.0):
        t = time.monotonic()
        while not re.search(pattern, self.out.getvalue()):
            assert time.monotonic() - t < timeout, self.out.getvalue()[-500:]
            time.sleep(0.01)

    def close(self, timeout=60.0):
        self.writer.close()
        self.thread.join(timeout)
        assert not self.thread.is_alive()


def test_analysis_streams_until_the_next_command_and_quit_ends_it():
    e, _ = engine_with_search()
    pipe = Pipe(e)
    pipe.send("1 lz-analyze b 5\n")
    pipe.wait_for(r"=1\ninfo move .*\ninfo move ")          # two reports: it streams
    pipe.send("2 name\n3 quit\n")
    pipe.thread.join(60)
    assert not pipe.thread.is_alive()
    out = pipe.out.getvalue()
    assert re.search(r"info move [^\n]*\n\n=2 Golois\n\n=3\n\n$", out), out[-300:]


def test_end_of_input_during_a_search_ends_the_engine():
    e, _ = engine_with_search()
    pipe = Pipe(e)
    pipe.send("kata-analyze b 5\n")
    pipe.wait_for(r"=\ninfo move ")
    pipe.close()
    assert pipe.out.getvalue().endswith("\n\n")


def test_pondering_searches_the_opponents_time_and_the_tree_is_reused():
    e, player = engine_with_search(visits=30)
    enable_pondering(e)
    pipe = Pipe(e)
    pipe.send("genmove b\n")
    pipe.wait_for(r"= [A-J]\d\n\n")
    t = time.monotonic()
    while (player.search.root is None or int(player.search.root.n.sum()) < 100) and time.monotonic() - t < 60:
        time.sleep(0.01)                                     # pondering on white's time
    pondered = int(player.search.root.n.sum())
    reply = next(c.move for c in player.search.candidates() if c.move is not None)
    pipe.send(f"play w {e.format_vertex(reply)}\ngenmove b\n")
    pipe.wait_for(r"= [A-J]\d\n\n=\n\n= [A-J]\d\n\n")
    reused = player.last.tree_visits - player.last.visits
    pipe.send("undo\nundo\nundo\ngenmove b\nquit\n")        # undo after a reused tree
    pipe.thread.join(60)
    assert not pipe.thread.is_alive()
    assert pondered >= 100 and reused > 0                   # white's reply had been searched
    assert pipe.out.getvalue().endswith("=\n\n") and "?" not in pipe.out.getvalue()


def test_quit_during_a_genmove_ends_its_search_at_once():
    """A genmove with a budget of a million visits, `quit` already waiting: the search stops at
    once, the move is a legal point, and the engine quits.  Other commands wait for the move
    (GTP is synchronous), so a `name` behind a genmove does not cut its search short."""
    e, player = engine_with_search(visits=10 ** 6)
    pipe = Pipe(e)
    pipe.send("1 genmove b\n2 quit\n")
    pipe.thread.join(60)
    assert not pipe.thread.is_alive()
    assert re.fullmatch(r"=1 [A-J]\d\n\n=2\n\n", pipe.out.getvalue()), pipe.out.getvalue()
    assert player.last.stopped == "interrupted" and player.last.visits < 10 ** 6
    e, player = engine_with_search(visits=60)
    pipe = Pipe(e)
    pipe.send("1 genmove b\n2 name\n")
    pipe.wait_for(r"=2 Golois\n\n")
    assert player.last.stopped != "interrupted" and player.last.visits > 0
    assert re.fullmatch(r"=1 [A-J]\d\n\n=2 Golois\n\n", pipe.out.getvalue()), pipe.out.getvalue()
    pipe.close()


def test_is_quit_reads_ids_and_comments():
    from golois.gtp.protocol import is_quit
    assert is_quit(None) and is_quit("quit\n") and is_quit("12 quit") and is_quit("  quit # bye")
    assert not is_quit("name") and not is_quit("# quit") and not is_quit("12 genmove b")
