"""golois.eval: how good is it? Move prediction, matches, and the solver's benches.

- `accuracy.py` / `accuracy_cli.py`: top-1 and top-5 of a network (`golois accuracy`), on the
  canonical 2015 sample or any games, by move number;
- `match.py`: matches between GTP engines (`golois match`), with the win rate's interval and Elo;
- `tally.py`: wins over finished match SGFs, each distinct game once;
- `tsumego_bench.py`: the solver on tsumego collections, side by side with GNU Go;
- `book_move_check.py`, `live_guess_sweep.py`, `eye_rules_check.py`, `tsumego_prior.py`: the
  solver's diagnoses (the book's move in our frame, the live guess's weights, the eye rules
  against the search, a network as the guesser).

The scripts of bench/ call these modules' `main`.
"""
