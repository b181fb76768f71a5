"""The fast rollout policy's Python side: its weight file (`weights`), the game records it trains
on (`records`) and its training (`train`); the `golois rollout` command is
golois/eval/rollout_cli.py.  The policy itself, its features and the rollouts are C, in
tactics/rollout.pyx.  Start with `train.py`."""
