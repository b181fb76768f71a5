"""The fast rollout policy's Python side: its weight file (`weights`), the game records it trains
on (`records`), its training (`train`) and the `golois rollout` command (`cli`).  The policy
itself, its features and the rollouts are C, in tactics/rollout.pyx.  Start with `train.py`."""
