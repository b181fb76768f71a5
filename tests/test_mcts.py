"""golois.search.mcts: PUCT selection, batched back-up under virtual loss, tree reuse, budgets,
the move by visits or lower confidence bound; checked with small evaluators that know nothing."""

import numpy as np

from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram

from golois.search.mcts import PASS, Leaf, Search, SearchConfig


def material(board: Board) -> float:
    """Stones of the player to move less the opponent's, squashed to [-1, 1]."""
    a = board.to_array()
    me, opp = board.to_move, WHITE if board.to_move == BLACK else BLACK
    return float(np.tanh(((a == me).sum() - (a == opp).sum()) / 4.0))


class Uniform:
    """Every legal move alike; the value from material; counts its calls."""

    def __init__(self, favour=None):
        self.calls, self.positions, self.favour = 0, 0, favour

    def __call__(self, boards, root=False):
        self.calls += 1
        self.positions += len(boards)
        out = []
        for b in boards:
            moves = np.array(b.legal_moves(b.to_move), dtype=np.int32)
            if moves.size == 0:
                out.append(Leaf(np.array([PASS], dtype=np.int32), np.ones(1, np.float32), material(b)))
                continue
            p = np.ones(len(moves), dtype=np.float32)
            if self.favour is not None:
                p[moves == self.favour] = 50.0     # a prior sure of a bad move
            out.append(Leaf(moves, p / p.sum(), material(b)))
        return out


# black to play: C3 (row 2, column 2) captures the four white stones in atari
ATARI = """
    . X O O X
    X O O X .
    . X . . .
    . . . . .
    . . . . .
"""
CAPTURE = 12          # the white string's last liberty


def test_the_search_finds_the_capture_the_priors_do_not_know():
    board = from_diagram(ATARI)
    search = Search(Uniform(), SearchConfig(visits=300, batch=4, lcb=False))
    result = search.run(board)
    assert result.move == CAPTURE
    assert result.candidates[0].move == CAPTURE and result.winrate > 0.5


def test_the_value_overrules_a_prior_sure_of_a_bad_move():
    board = from_diagram(ATARI)
    bad = 24                                   # the far corner
    result = Search(Uniform(favour=bad), SearchConfig(visits=400, batch=1, lcb=False)).run(board)
    assert result.move == CAPTURE
    few = Search(Uniform(favour=bad), SearchConfig(visits=2, batch=1, lcb=False, early_stop=False)).run(board)
    assert few.move == bad                     # with almost no visits the prior decides


def test_batches_leave_no_virtual_loss_and_count_every_visit():
    board = from_diagram(ATARI)
    ev = Uniform()
    search = Search(ev, SearchConfig(visits=200, batch=8, early_stop=False))
    result = search.run(board)
    assert result.visits == 200 == int(search.root.n.sum())

    def check(node):
        for i, child in enumerate(node.children):
            if child is not None:
                # the edge's visits: the child's own evaluation and every visit below it
                assert node.n[i] == 1 + int(child.n.sum()) or child.terminal
                assert abs(node.w[i] + child.value + child.w.sum()) < 1e-6 or child.terminal
                check(child)
    check(search.root)
    assert ev.positions <= 1 + 200                        # the root, then at most one leaf per visit
    assert ev.calls < ev.positions / 4                    # batched


def test_the_same_seed_gives_the_same_search():
    board = from_diagram(ATARI)
    a = Search(Uniform(), SearchConfig(visits=150, batch=4)).run(board)
    b = Search(Uniform(), SearchConfig(visits=150, batch=4)).run(board)
    assert [(c.move, c.visits) for c in a.candidates] == [(c.move, c.visits) for c in b.candidates]


def test_the_tree_is_reused_after_the_moves_played_and_dropped_after_an_undo():
    board = from_diagram(ATARI)
    search = Search(Uniform(), SearchConfig(visits=300, batch=4, lcb=False))
    first = search.run(board)
    board.play(first.move, BLACK)
    reply = first.candidates[0].pv[1]
    board.play(reply, WHITE)
    second = search.run(board, visits=50)
    assert second.tree_visits > second.visits            # the subtree's visits came along
    board.undo()
    board.undo()
    third = search.run(board, visits=20)
    assert third.tree_visits == third.visits              # not the same line: a new tree


def test_early_stop_and_restricted_root():
    board = from_diagram(ATARI)
    result = Search(Uniform(), SearchConfig(visits=2000, batch=4)).run(board)
    assert result.stopped == "early" and result.visits < 2000 and result.move == CAPTURE
    allowed = np.zeros(25, dtype=bool)
    allowed[[20, 21]] = True
    only = Search(Uniform(), SearchConfig(visits=50, batch=4)).run(board, restrict=allowed)
    assert only.move in (20, 21) and {c.move for c in only.candidates} <= {20, 21}


def test_a_restricted_root_is_searched_afresh_without_the_restriction():
    board = from_diagram(ATARI)
    search = Search(Uniform(), SearchConfig(visits=50, batch=4))
    allowed = np.zeros(25, dtype=bool)
    allowed[[20, 21]] = True
    search.run(board, restrict=allowed)
    again = search.run(board)
    assert again.tree_visits == again.visits and again.move == CAPTURE


def test_lcb_prefers_a_sure_move_to_a_lucky_one():
    board = from_diagram(ATARI)
    search = Search(Uniform(), SearchConfig(visits=300, batch=4, lcb=True, lcb_min_share=0.0))
    result = search.run(board)
    best = max(result.candidates, key=lambda c: c.lcb)
    assert result.move == best.move
    assert all(c.lcb <= c.winrate for c in result.candidates)


class WithPass(Uniform):
    """Uniform, with a pass beside the legal moves."""

    def __call__(self, boards, root=False):
        out = super().__call__(boards, root)
        for leaf in out:
            if PASS not in leaf.moves:
                leaf.moves = np.append(leaf.moves, PASS).astype(np.int32)
                leaf.priors = np.full(len(leaf.moves), 1.0 / len(leaf.moves), dtype=np.float32)
        return out


def test_a_pass_after_a_pass_ends_the_game_and_is_scored():
    board = from_diagram("""
        . X X
        X X X
        X X .
    """, to_move="white")
    board.play(None, WHITE)                        # white passes (its only moves are suicides)
    scored = []

    def terminal(b):
        scored.append(b.to_move)
        return -1.0                                # white, to move after the passes, has lost
    result = Search(WithPass(), SearchConfig(visits=30, batch=1, lcb=False), terminal_value=terminal).run(board)
    assert scored and set(scored) == {WHITE}
    assert result.move is None                     # black passes: the game is won
    assert result.candidates[0].winrate == 1.0


def test_no_search_grows_the_tree_past_its_cap():
    board = from_diagram(ATARI)
    search = Search(Uniform(), SearchConfig(visits=0, batch=4, max_tree=120))
    result = search.run(board, stop=lambda: False)          # no budget, never interrupted
    assert result.stopped == "tree full" and 120 <= result.tree_visits < 130


class Later(Uniform):
    """Uniform's leaves whose values come later (settle), as rollouts on another thread do;
    counts the values still owed."""

    def __init__(self):
        super().__init__()
        self.owed = 0

    def __call__(self, boards, root=False):
        leaves = super().__call__(boards, root)
        for leaf in leaves:
            value, leaf.value = leaf.value, 0.0
            self.owed += 1

            def settle(v=value):
                self.owed -= 1
                return v
            leaf.settle = settle
        return leaves


def test_values_that_come_later_are_all_backed_up_and_no_virtual_loss_is_left():
    board = from_diagram(ATARI)
    later = Later()
    search = Search(later, SearchConfig(visits=300, batch=4, lcb=False, early_stop=False))
    result = search.run(board)
    assert later.owed == 0 and not search._waiting
    assert result.move == CAPTURE                      # the same answer as with values at once
    root = search.root

    def check(node):                                   # every edge: visits are real ones, values in range
        for i, child in enumerate(node.children):
            if node.n[i]:
                assert abs(node.w[i]) <= node.n[i] + 1e-9
            if child is not None:
                assert node.n[i] >= 1
                check(child)
    check(root)
    assert int(root.n.sum()) == result.tree_visits
