"""`golois accuracy` end to end on generated games, checked against an independent count."""

import json
import random

import numpy as np
import torch

from golois.cli import main as golois_main
from golois.datasets.features import get_feature_set
from golois.nn.model import ModelMeta, PolicyNet, make_config, save_model
from tactics import coords
from tactics.board import Board


def _write_games(folder, n_games=3, n_moves=70):
    """Random 19x19 games between two 7d players; returns (target, first legal point, kept)
    for every move, kept = no ko ban for the player to move (the dataset's ko rule)."""
    rng = random.Random(4)
    expected = []
    for g in range(n_games):
        b, nodes = Board(19), []
        for _ in range(n_moves):
            legal = b.legal_moves()
            m = rng.choice([x for x in legal if b.eye(x, b.to_move) != 2])
            expected.append((m, legal[0], b.ko is None))
            nodes.append(f";{'B' if b.to_move == 1 else 'W'}[{coords.format_sgf_point(divmod(m, 19), 19)}]")
            b.play(m)
        (folder / f"game{g}.sgf").write_text(f"(;GM[1]FF[4]SZ[19]KM[6.5]BR[7d]WR[8d]DT[2015-01-0{g + 1}]{''.join(nodes)})")
    return expected


def test_accuracy_of_a_flat_network_is_exact(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    expected = _write_games(games)
    fs = get_feature_set("golois")
    model = PolicyNet(make_config("tiny", fs.planes))
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()                      # every logit 0: the first legal point wins the argmax
    save_model(tmp_path / "flat.pt", model, ModelMeta(feature_set=fs.as_dict()))
    rc = golois_main(["accuracy", str(games), "--model", str(tmp_path / "flat.pt"), "--json",
                      "--ladder-adjust", "both"])
    assert rc == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    kept = [(t, first) for t, first, ok in expected if ok]
    assert len(reports) == 2
    for report in reports:
        assert report["positions"] == len(kept)
        assert np.isclose(report["top1"], np.mean([t == first for t, first in kept]))
