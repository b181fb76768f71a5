"""golois.player: the fast player, one policy evaluation per move with tactics on top.

- `player.py`: `Player.genmove`, the policies (network, fallback) and the rules of conduct;
- `hooks.py`: the tactical hooks from the tactics library (`default_hooks`: ladders, captures,
  the life-and-death solver, Benson);
- `ladder_adjust.py`: the paper's post-hoc ladder adjustments of the policy's logits;
- `scoring.py`: dead stones, seki, area score and ownership, for the endgame and final_score.

Dependencies run player -> hooks -> ladder_adjust, scoring.  Start with `player.Player.genmove`.
"""
