"""golois.tsumego: life-and-death problems from the command line, and the solver's benches.

- `cli.py`: `golois solve` (problems, collections, ladders, game positions with --target);
- `problem_sgf.py`: problem SGF files: the setup, the RIGHT answers, solution trees as SGF;
- `owl.py`: `owl_solve`, the solver on a whole board as GNU Go's owl commands ask it;
- `batch.py`: problems on several cores, answers in order;
- `benchmark.py`, `book_check.py`, `eye_rules_check.py`, `guess_sweep.py`, `prior.py`: the code of
  the solver's benches (bench/tsumego_bench.py and the others), tested like the rest.

The search itself is in the tactics library (tactics/problem.py `solve`).  Start with `cli.py`.
"""
