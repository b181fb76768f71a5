"""The tree search for full-strength play: `mcts` (the PUCT search, no network inside), `leaves`
(its evaluator from the fast bot: network batches, tactics, value head, playouts), `clock` (time
management) and `player` (`SearchPlayer`: the fast bot's conduct, the search's moves).  Start
with golois/search/player.py."""
