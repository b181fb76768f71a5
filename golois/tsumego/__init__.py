"""golois.tsumego: life-and-death problems from the command line, and the solver's benches.

- `cli.py`: `golois solve` (problems, collections, ladders, game positions with --target);
- `problem_sgf.py`: problem SGF files: the setup, the RIGHT answers, solution trees as SGF;
- `owl.py`: `owl_solve`, the solver on a whole board as GNU Go's owl commands ask it;
- `batch.py`: problems on several cores, answers in order.

The search itself is in the tactics library (tactics/problem.py `solve`); the solver's benches
are in golois/eval/.  Start with `cli.py`.
"""
