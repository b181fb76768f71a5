# cython: language_level=3
"""Input planes of whole positions in C: the hot loops behind `golois.datasets.features`.

Five entry points, each one `with nogil:` region over plain numpy buffers:

- `stone_planes(board, out)`: the 9 binary stone planes of one position (the block named
  `STONE_PLANES`), from the point of view of the side to move.
- `game_stone_planes(size, points, colors, out, flags)`: replays a whole game from the empty
  board and writes the stone planes of the position *before* every move, plus per-move flags
  (ko ban for the mover, pass target).  This is the dataset builder's fast path.
- `game_tactical_planes(size, points, colors, kept, ladder, life, ...)`: the four ladder facts
  (thresholded at > 0, in the order of `LADDER_PLANES`) and the life planes of the positions
  before the kept moves of a game, in one replay.
- `last_move_planes(points, colors, ends, to_move, history, out)`: the paper's two decaying
  last-move planes for a batch of positions, from the game's move list.
- `life_planes(board, out, max_libs, max_nodes)`: the six life-and-death planes of one position
  (`LIFE_PLANES`: the capture search's verdict on every string with few liberties, Benson's
  unconditional life).

Nothing here knows plane indices of a feature set: `golois/datasets/features.py` holds the
registry and names every plane.  Start reading at `_stones` (the plane definitions).
"""

cimport cython
from libc.math cimport exp
from libc.string cimport memset

import numpy as np

from tactics.board cimport (BLACK, EMPTY, MAX_POINTS, NO_POINT, PASS, WHITE, Board, board_free,
                            board_init, board_play, board_t, opponent)
from libc.stdlib cimport free, malloc
from tactics.benson cimport benson, benson_ws
from tactics.capture cimport (CAPTURE_FAIL, CAPTURE_WIN, capture_attack_c, capture_default_params,
                              capture_defend_c, capture_params_t)
from tactics.ladder cimport ladder_default_params, ladder_facts_c, ladder_params_t

# Order of the block written by stone_planes / game_stone_planes.  "libs1" is a string with
# exactly one liberty, "libs2" exactly two, "libs3" three or more.
STONE_PLANES = ("empty", "friend", "enemy",
                "friend_libs1", "friend_libs2", "friend_libs3",
                "enemy_libs1", "enemy_libs2", "enemy_libs3")

cdef enum:
    N_STONE = 9
    N_LIFE = 6
    # game_stone_planes flags, per move
    F_KO = 1         # a ko-banned point exists for the side to move (the simple-ko point)
    F_PASS = 2       # the move is a pass
    F_ILLEGAL = 4    # the move is illegal (replay stopped there)

N_STONE_PLANES = N_STONE
# Order of the ladder block written by game_tactical_planes: keys of tactics.ladder.ladder_facts.
LADDER_PLANES = ("captures", "saves", "pushes", "capturable")
# Order of the block written by life_planes / game_tactical_planes (friend = the side to move):
# - friend_threatened: stones of friend strings the opponent captures moving first (capture
#   search: CAPTURE_WIN within the budget);
# - friend_lost: ... of those, the ones friend cannot save even moving first (CAPTURE_FAIL);
# - enemy_capturable / enemy_lost: the same for enemy strings, friend attacking first / the enemy
#   failing to save them moving first;
# - friend_unconditional / enemy_unconditional: Benson's unconditionally alive stones of each
#   colour and their small enclosed regions (tactics.benson).
# Only strings of at most max_libs liberties are read; ko and unfinished answers mark nothing.
LIFE_PLANES = ("friend_threatened", "friend_lost", "enemy_capturable", "enemy_lost",
               "friend_unconditional", "enemy_unconditional")
N_LIFE_PLANES = N_LIFE
FLAG_KO, FLAG_PASS, FLAG_ILLEGAL = F_KO, F_PASS, F_ILLEGAL


cdef void _stones(const board_t *b, int me, unsigned char *out) noexcept nogil:
    """The 9 planes of STONE_PLANES into out (9 consecutive n*n planes, zeroed here)."""
    cdef int n = b.size, nn = n * n, W = b.W, r, c, p, i, col, libs
    memset(out, 0, N_STONE * nn)
    for r in range(n):
        p = (r + 1) * W + 1
        for c in range(n):
            i = r * n + c
            col = b.color[p]
            if col == EMPTY:
                out[i] = 1
            else:
                libs = b.libs[b.head[p]]
                if libs > 3:
                    libs = 3
                if col == me:
                    out[nn + i] = 1
                    out[(2 + libs) * nn + i] = 1
                else:
                    out[2 * nn + i] = 1
                    out[(5 + libs) * nn + i] = 1
            p += 1


@cython.boundscheck(False)
def stone_planes(Board board, unsigned char[:, :, ::1] out):
    """Write the 9 stone planes of `board` (side to move = friend) into out[9, n, n]."""
    cdef board_t *b = &board.b
    if out.shape[0] != N_STONE or out.shape[1] != b.size or out.shape[2] != b.size:
        raise ValueError(f"out must be ({N_STONE}, {b.size}, {b.size})")
    with nogil:
        _stones(b, b.to_move, &out[0, 0, 0])


@cython.boundscheck(False)
def game_stone_planes(int size, const int[::1] points, const signed char[::1] colors,
                      unsigned char[:, :, ::1] out, unsigned char[::1] flags):
    """Replay a game (flat points, -1 = pass; colours BLACK/WHITE) on an empty board.

    For every move i, out[i] (shape [9, size*size]) receives the stone planes of the position
    before move i, seen by colors[i], and flags[i] the FLAG_* bits.  Returns the number of moves
    replayed; a smaller number than len(points) is the index of the first illegal move (its
    flags carry FLAG_ILLEGAL and later rows are untouched)."""
    cdef int n_moves = points.shape[0], i, m, p, c, played = 0
    cdef board_t b
    if colors.shape[0] != n_moves or flags.shape[0] < n_moves:
        raise ValueError("points, colors and flags must have the same length")
    if out.shape[0] < n_moves or out.shape[1] != N_STONE or out.shape[2] != size * size:
        raise ValueError(f"out must be (>= {n_moves}, {N_STONE}, {size * size})")
    board_init(&b, size)
    try:
        with nogil:
            for i in range(n_moves):
                m = points[i]
                c = colors[i]
                b.to_move = c
                flags[i] = 0
                if b.ko != NO_POINT and b.ko_color == c:
                    flags[i] |= F_KO
                _stones(&b, c, &out[i, 0, 0])
                if m < 0:
                    p = PASS
                    flags[i] |= F_PASS
                elif m >= size * size or (c != BLACK and c != WHITE):
                    flags[i] |= F_ILLEGAL
                    break
                else:
                    p = (m // size + 1) * b.W + m % size + 1
                if not board_play(&b, p, c):
                    flags[i] |= F_ILLEGAL
                    break
                played += 1
    finally:
        board_free(&b)
    return played


@cython.boundscheck(False)
def last_move_planes(const short[::1] points, const signed char[::1] colors,
                     const long long[::1] starts, const long long[::1] ends,
                     const signed char[::1] to_move, int history, float[:, :, ::1] out):
    """The two decaying last-move planes for a batch of B positions.

    Position j's history is points[starts[j]:ends[j]] (oldest first, -1 = pass) with their
    colours; the move k plies back (k = 1 for the last move) gets exp(-0.1 k) at its point, in
    plane 0 if it was played by the opponent of to_move[j], in plane 1 if by to_move[j] itself.
    Only the `history` last plies count; a point keeps its most recent value per plane.  Passes
    take a ply and mark nothing.  out has shape [B * 2, n, n] and is overwritten."""
    cdef int B = starts.shape[0], j, k, plane, nn, n
    cdef long long m
    cdef int p
    cdef float *o
    n = out.shape[1]
    nn = n * n
    if out.shape[0] != 2 * B or out.shape[2] != n or ends.shape[0] != B or to_move.shape[0] != B:
        raise ValueError("out must be (2 * B, n, n) and starts, ends, to_move of length B")
    with nogil:
        for j in range(B):
            o = &out[2 * j, 0, 0]
            memset(o, 0, 2 * nn * sizeof(float))
            k = 0
            m = ends[j] - 1
            while m >= starts[j] and k < history:
                k += 1
                p = points[m]
                if 0 <= p < nn:
                    plane = 1 if colors[m] == to_move[j] else 0
                    if o[plane * nn + p] == 0:
                        o[plane * nn + p] = <float>exp(-0.1 * k)
                m -= 1


cdef struct life_ws_t:
    capture_params_t capture     # the capture search's limits (max_libs, max_nodes)
    benson_ws bws                # Benson's workspace (no mask: the whole board)
    int verdict[MAX_POINTS]      # per string head: 0 unread, 1 safe, 2 threatened, 3 lost
    unsigned char marks[MAX_POINTS]   # benson's output


cdef life_ws_t *_life_ws(int max_libs, int max_nodes) except NULL:
    """A workspace with the capture defaults and the given limits (free it with free())."""
    cdef life_ws_t *ws = <life_ws_t *>malloc(sizeof(life_ws_t))
    if ws == NULL:
        raise MemoryError("life planes workspace")
    capture_default_params(&ws.capture)
    ws.capture.max_libs = max_libs
    ws.capture.max_nodes = max_nodes
    ws.bws.mask = NULL
    return ws


cdef int _read_string(board_t *b, int h, life_ws_t *ws) except -1 nogil:
    """The verdict on the string of head h: 1 safe, 2 captured if its opponent moves first (but
    saved if its owner does), 3 captured whoever moves first.  No transposition table: the
    answer depends on the position only."""
    cdef int m, nodes
    if b.libs[h] > ws.capture.max_libs:
        return 1
    if capture_attack_c(b, h, &ws.capture, NULL, &m, &nodes) != CAPTURE_WIN:
        return 1
    if capture_defend_c(b, h, &ws.capture, NULL, &m, &nodes) == CAPTURE_FAIL:
        return 3
    return 2


cdef int _life(board_t *b, int me, life_ws_t *ws, unsigned char *out) except -1 nogil:
    """The N_LIFE planes of LIFE_PLANES for `me` to move into out (N_LIFE consecutive n*n planes,
    zeroed here).  The board is searched in place and restored."""
    cdef int n = b.size, nn = n * n, r, c, p, i, h, v, col, k
    memset(out, 0, N_LIFE * nn)
    memset(ws.verdict, 0, sizeof(ws.verdict))
    for r in range(n):
        for c in range(n):
            p = (r + 1) * b.W + c + 1
            col = b.color[p]
            if col != BLACK and col != WHITE:
                continue
            h = b.head[p]
            if ws.verdict[h] == 0:
                ws.verdict[h] = _read_string(b, h, ws)
            v = ws.verdict[h]
            if v >= 2:
                i = r * n + c
                k = 0 if col == me else 2
                out[k * nn + i] = 1
                if v == 3:
                    out[(k + 1) * nn + i] = 1
    for k in range(2):
        col = me if k == 0 else opponent(me)
        if benson(b, col, &ws.bws, ws.marks) == 0:
            continue
        for r in range(n):
            for c in range(n):
                if ws.marks[(r + 1) * b.W + c + 1]:
                    out[(4 + k) * nn + r * n + c] = 1
    return 0


@cython.boundscheck(False)
def life_planes(Board board, unsigned char[:, :, ::1] out, int max_libs, int max_nodes):
    """Write the N_LIFE planes of `board` (LIFE_PLANES, side to move = friend) into
    out[N_LIFE, n, n], reading strings of at most max_libs liberties with max_nodes moves per
    capture query."""
    cdef board_t *b = &board.b
    if out.shape[0] != N_LIFE or out.shape[1] != b.size or out.shape[2] != b.size:
        raise ValueError(f"out must be ({N_LIFE}, {b.size}, {b.size})")
    cdef life_ws_t *ws = _life_ws(max_libs, max_nodes)
    try:
        with nogil:
            _life(b, b.to_move, ws, &out[0, 0, 0])
    finally:
        free(ws)


@cython.boundscheck(False)
def game_tactical_planes(int size, const int[::1] points, const signed char[::1] colors,
                         const int[::1] kept, unsigned char[:, :, ::1] ladder=None,
                         unsigned char[:, :, ::1] life=None, int max_libs=3, int max_nodes=100):
    """Replay a game (as game_stone_planes; the moves must be legal) once and, for each kept move
    index kept[j] (increasing), write the planes of the position before it, seen by
    colors[kept[j]]: into ladder[j] (shape [4, size*size]) the ladder facts thresholded at > 0
    (LADDER_PLANES), into life[j] (shape [N_LIFE, size*size]) the life planes (LIFE_PLANES, with
    life_planes' limits).  Either may be None.  Returns the number of positions written."""
    cdef int n_moves = points.shape[0], n_kept = kept.shape[0], i, j = 0, m, p, c, k, r, col, q
    cdef bint want_ladder = ladder is not None, want_life = life is not None
    cdef board_t b
    cdef ladder_params_t params
    cdef int facts[4][MAX_POINTS]
    cdef life_ws_t *ws = NULL
    if want_ladder and (ladder.shape[0] < n_kept or ladder.shape[1] != 4 or ladder.shape[2] != size * size):
        raise ValueError(f"ladder must be (>= {n_kept}, 4, {size * size})")
    if want_life and (life.shape[0] < n_kept or life.shape[1] != N_LIFE or life.shape[2] != size * size):
        raise ValueError(f"life must be (>= {n_kept}, {N_LIFE}, {size * size})")
    ladder_default_params(&params)
    if want_life:
        ws = _life_ws(max_libs, max_nodes)
    board_init(&b, size)
    try:
        with nogil:
            for i in range(n_moves):
                if j >= n_kept:
                    break
                m = points[i]
                c = colors[i]
                b.to_move = c
                if kept[j] == i:
                    if want_ladder:
                        ladder_facts_c(&b, &params, facts[0], facts[1], facts[2], facts[3])
                        for k in range(4):
                            for r in range(size):
                                for col in range(size):
                                    q = (r + 1) * b.W + col + 1
                                    ladder[j, k, r * size + col] = facts[k][q] > 0
                    if want_life:
                        _life(&b, c, ws, &life[j, 0, 0])
                    j += 1
                p = PASS if m < 0 else (m // size + 1) * b.W + m % size + 1
                if not board_play(&b, p, c):
                    break
    finally:
        board_free(&b)
        free(ws)
    return j
