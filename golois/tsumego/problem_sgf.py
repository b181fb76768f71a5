"""Problems as SGF files, for `golois solve` (golois/tsumego/cli.py): reading them and writing the
answers back.

Reading: `problem_names` lists the problems of folders and files (a file of several games, an
SGF collection as problem books often come, is one problem per game, named `FILE#K`, K from 1);
`read_problem` gives one problem's SGF; `load_problem` its setup position and the player to move
(the main line's moves are the book's answer, never played); `right_answers` the moves
commented RIGHT below the problem's node (the root, or a setup node below it).

Writing (`--sgf-out`): `write_sgf` hangs the solver's answer from the problem's setup as
variations commented RIGHT, WRONG or BEST TRY; `write_ladder_sgf` the ladder's sequence;
`sgf_out_names` gives each problem of a run its own file name.

Start with `load_problem`, then `write_sgf`.
"""

from __future__ import annotations

import itertools
import os

from golois.sgf import SgfError, collection_game, collection_size, parse_game
from tactics.board import BLACK, WHITE
from tactics.coords import format_vertex, from_sgfmill, to_sgfmill, vertex_to_flat


def collection_folders(root) -> list:
    """The problem collections `root` names: root itself when it is a file or holds SGF files,
    else its sub-folders, sorted (a folder of collections, as ../shared/data/tsumego).  The
    benchmarks' root argument (bench/tsumego_bench.py and the others)."""
    root = str(root)
    if not os.path.isdir(root) or any(f.lower().endswith(".sgf") for f in os.listdir(root)):
        return [root]
    return sorted(os.path.join(root, d) for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))


def problem_names(inputs, limit=None):
    """The problems of the inputs (folders or files), in order: a folder's .sgf files by name,
    each file's games (`problems`); at most `limit` problems of each input (also
    bench/tsumego_bench.py's collections)."""
    for item in inputs:
        if os.path.isdir(item):
            names = sorted(f for f in os.listdir(item) if f.lower().endswith(".sgf"))
            found = (p for f in names for p in problems(os.path.join(item, f)))
        else:
            found = iter(problems(item))
        yield from itertools.islice(found, limit)


def problems(path) -> list:
    """The problems of one input file: [path] for a record of one game, else `path#1`,
    `path#2`, ..., one per game of the SGF collection (a problem book in one file); a name
    that already says `FILE#K` as it is."""
    if _collection_part(path)[1] is not None:
        return [str(path)]
    try:
        with open(path, "rb") as f:
            n = collection_size(f.read())
    except OSError:                     # (solving it says why)
        n = 1
    return [str(path)] if n == 1 else [f"{path}#{k}" for k in range(1, n + 1)]


def _collection_part(name):
    """(FILE, K) for a problem name `FILE#K` (the Kth game of the collection FILE), else
    (name, None); a file really named so is itself."""
    head, sep, tail = str(name).rpartition("#")
    if sep and tail.isdigit() and not os.path.exists(name) and os.path.isfile(head):
        return head, int(tail)
    return str(name), None


def read_problem(name) -> bytes:
    """The SGF of a problem name (`problems`): the file, or one game of a collection alone.
    Raises SgfError."""
    path, k = _collection_part(name)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SgfError(str(name), f"cannot read: {e.strerror}") from None
    return data if k is None else collection_game(data, k, str(name))


def accuracy_group(name) -> str:
    """Where a problem's accuracy is counted: its collection file, or its folder."""
    path, k = _collection_part(name)
    return path if k is not None else os.path.dirname(path) or "."


def _has_move(node) -> bool:
    return node.has_property("B") or node.has_property("W")


def _problem_node(game):
    """The node whose children are the problem's answers: the root, or the last of a chain of
    only children without a move below it (a setup node under the root)."""
    node = game.get_root()
    while len(node) == 1 and not _has_move(node) and not _has_move(node[0]):
        node = node[0]
    return node


def right_answers(path, mover=None):
    """GTP vertices of the moves commented RIGHT that answer the problem (empty if none): the
    root's children, or those of a setup node below it (`_problem_node`); given `mover`, only
    those that are that colour's moves."""
    from sgfmill import sgf
    game = sgf.Sgf_game.from_bytes(read_problem(path))
    n = game.get_size()
    out = []
    for child in _problem_node(game):
        comment = child.get("C") if child.has_property("C") else ""
        if "RIGHT" in comment and _has_move(child):
            try:
                colour, mv = child.get_move()
            except ValueError:          # (B[zz]: a variation we cannot read is no answer)
                continue
            if mover is not None and colour != {BLACK: "b", WHITE: "w"}[mover]:
                continue
            out.append("PASS" if mv is None else format_vertex(from_sgfmill(mv, n), n))
    return out


def load_problem(path, move=None):
    """(board, player to move) of an SGF problem: the setup stones (the main line's moves are
    the answer in problem collections, so they are not played, nor read: a malformed one is no
    error), PL or else the first mover.
    move: a game's position instead, before move `move` (1-based, as GTP's `loadsgf FILE N`;
    "end": after the last move), with its side to move.  Raises SgfError."""
    data = read_problem(path)
    game = parse_game(data, str(path), setup_only=move is None)      # (a bad answer move: no error)
    if move is not None:
        if move == "end":
            board = game.board_at(None)
            return board, board.to_move
        if not str(move).isdigit() or not 1 <= int(move) <= len(game.moves) + 1:
            raise SgfError(path, f"--move {move}: expected 1 to {len(game.moves) + 1} or end")
        board = game.board_at(int(move) - 1)
        return board, board.to_move
    board = game.board_at(0)
    board.to_move = game.first_player       # PL, else the first move's colour (golois.sgf)
    return board, board.to_move


def write_ladder_sgf(path_in, out_dir, board, rec, seq, position=False, name=None):
    """The ladder problem with the sequence as its main line (the first move commented with the
    result; without a sequence, an escape, the root is), written to out_dir under `name`
    (`sgf_out_names`), else the input's (position: from `board`, `--move`)."""
    game = _bare_problem(path_in, board, position)
    root = game.get_root()
    attacker = 3 - board.get(vertex_to_flat(rec["vertex"], board.size))       # it moves first
    root.set("PL", "b" if attacker == BLACK else "w")
    comment = f"the string at {rec['vertex']} is {rec['result']} in a ladder"
    if seq:
        _add_line(root, attacker, seq, board.size, comment)
    else:
        root.set("C", "\n\n".join(([root.get("C")] if root.has_property("C") else []) + [comment]))
    return _save(game, path_in, out_dir, name)


def _bare_problem(path_in, board, position=False):
    """The input SGF (sgfmill) reduced to its root, holding the problem's setup position: the
    setup of the main line's nodes before its first move, which load_problem applied (`board`),
    is set in the root (their comments after its own) when some of it is below; given
    `position` (a game's position, `--move`), `board` as a setup instead
    (golois.sgf.position_to_sgf)."""
    from sgfmill import sgf
    if position:
        from golois.sgf import position_to_sgf
        return sgf.Sgf_game.from_bytes(position_to_sgf(board, comment=f"{path_in}, --move"))
    game = sgf.Sgf_game.from_bytes(read_problem(path_in))
    root, n = game.get_root(), board.size
    below, node = [], root
    while not _has_move(node) and len(node) and not _has_move(node[0]):
        node = node[0]
        below.append(node)
    if below:
        arr = board.to_array()
        for prop in ("AB", "AW", "AE"):
            if root.has_property(prop):
                root.unset(prop)
        for colour, prop in ((BLACK, "AB"), (WHITE, "AW")):
            points = {to_sgfmill((r, c), n) for r in range(n) for c in range(n) if arr[r, c] == colour}
            if points:
                root.set(prop, points)
        comments = [x.get("C") for x in [root] + below if x.has_property("C")]
        if comments:
            root.set("C", "\n\n".join(comments))
    for child in list(root):
        child.delete()
    return game


def _add_line(root, colour, moves, n, comment):
    """A variation of `moves` (flat, None = pass) below root, `colour` first, its first node
    commented: `_add_tree` of a tree with one branch."""
    tree = []
    for m in reversed(moves):
        tree = [(m, tree)]
    _add_tree(root, colour, tree, n, comment)


def _add_tree(parent, colour, tree, n, comment=None):
    """The variations of `tree` ([(flat move or None, subtree), ...], tactics.problem
    Solution.tree) below parent, `colour` first; the first move of each top variation
    commented."""
    for m, sub in tree:
        node = parent.new_child()
        node.set_move("b" if colour == BLACK else "w", to_sgfmill(None if m is None else divmod(m, n), n))
        if comment:
            node.set("C", comment)
        _add_tree(node, 3 - colour, sub, n)


def _out_name(path_in) -> str:
    """The input's file name (a collection's game K: FILE-K.sgf)."""
    path, k = _collection_part(path_in)
    name = os.path.basename(path)
    if k is not None:
        stem, ext = os.path.splitext(name)
        name = f"{stem}-{k}{ext or '.sgf'}"
    return name


def sgf_out_names(files) -> list:
    """The --sgf-out file name of each problem of the run, in order: the input's (`_out_name`),
    with -2, -3, ... before the extension when an earlier problem of the run has it (folders
    with the same file names, an input given twice; compared without case), so that no answer
    overwrites another."""
    names, taken = [], set()
    for path in files:
        k, name = 1, _out_name(path)
        stem, ext = os.path.splitext(name)
        while name.lower() in taken:
            k += 1
            name = f"{stem}-{k}{ext}"
        taken.add(name.lower())
        names.append(name)
    return names


def _save(game, path_in, out_dir, name=None):
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, name or _out_name(path_in))
    with open(out, "wb") as f:
        f.write(game.serialise())
    return out


def write_sgf(path_in, out_dir, board, sol, position=False, name=None):
    """The problem with the solution: the solution tree as a variation commented RIGHT (the
    answer, every reply of the opponent the search proved, the answer to each, and so on:
    Solution.tree), or the PV when there is no tree (WRONG if the goal fails, BEST TRY when the
    search did not finish: no RIGHT, which problem tools read as the answer), the other proven
    winning first moves as RIGHT variations, and each first move the search proved to fail as a
    WRONG variation with its refutation: its tree (Solution.refutations: the opponent's answer,
    each of our next moves the search proved lost, the answer to each, ...), or the table's
    line where there is none.  position: the solution hangs from
    `board` (a game's position, `--move`), not the file's setup.  name: the file's name in
    out_dir (`sgf_out_names`; default: the input's)."""
    game = _bare_problem(path_in, board, position)
    root, n = game.get_root(), board.size
    root.set("PL", "b" if sol.to_move == BLACK else "w")      # (--to-play: not the file's PL)
    ok = sol.result in ("win", "ko_a", "ko_b")
    if ok and sol.tree:
        _add_tree(root, sol.to_move, sol.tree, n, f"RIGHT: {sol.status}")
    else:
        verdict = "RIGHT" if ok else "WRONG" if sol.result == "fail" else "BEST TRY, unproven"
        _add_line(root, sol.to_move, sol.pv, n, f"{verdict}: {sol.status}")
    for m in sol.winning:
        if m != sol.move:
            _add_line(root, sol.to_move, [m], n, f"RIGHT: {sol.status}")
    wrong = f"WRONG: {'black' if sol.to_move == BLACK else 'white'} to {sol.goal} fails after this move"
    for m, line in sol.refuted.items():
        if sol.refutations.get(m):
            _add_tree(root, sol.to_move, [(m, sol.refutations[m])], n, wrong)
        else:
            _add_line(root, sol.to_move, [m] + list(line), n, wrong)
    return _save(game, path_in, out_dir, name)
