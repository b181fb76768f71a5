"""golois.gtp: Golois as a GTP v2 engine, and GTP clients of other engines.

- `protocol.py`: the engine (`GtpEngine`), its registry of handlers (`CommandSet`) and the core
  commands (board, SGF, time, handicap);
- `engine.py`: `build_engine`, the one place that picks an engine's command sets, and the
  command line of `python play.py` / `golois gtp`;
- `play.py`: genmove, cleanup, scoring and GoGui's analyze commands, answered by the player;
- `tactics.py`: ladder and capture commands in GNU Go's formats;
- `solver.py`: owl_attack, owl_defend, dragon_status, unconditional_status, restricted_genmove;
- `client.py`: another engine in a subprocess (GNU Go as opponent and oracle).

Start with `engine.build_engine`.
"""
