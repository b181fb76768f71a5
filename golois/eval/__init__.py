"""golois.eval: how good is it? Move prediction and matches.

- `accuracy.py` / `accuracy_cli.py`: top-1 and top-5 of a network (`golois accuracy`), on the
  canonical 2015 sample or any games, by move number;
- `match.py`: matches between GTP engines (`golois match`), with the win rate's interval and Elo;
- `tally.py`: wins over finished match SGFs, each distinct game once.
"""
