"""Run under torchrun by tests/test_training_ddp.py: a short CPU (gloo) training on synthetic data."""

import os
import sys

import torch

from golois.nn.train_config import TrainConfig
from golois.nn.training import Trainer
from tests.synthetic_data import MarkedMoves

torch.set_num_threads(1)

if __name__ == "__main__":
    # argv: OUT_DIR [MAX_STEPS|-] [resume]
    out_dir = sys.argv[1]
    max_steps = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    config = TrainConfig(out_dir=out_dir, preset="tiny", batch_size=16, lr_schedule="0.1@0", momentum=0.9,
                         max_examples=256, checkpoint_every=64, eval_every=128, eval_positions=32,
                         log_every=64, workers=0, progress=False, seed=5,
                         resume="auto" if "resume" in sys.argv[3:] else None)
    trainer = Trainer(config, MarkedMoves(n=200, seed=0), MarkedMoves(n=32, seed=1))
    trainer.train(max_steps=max_steps)
    total = sum(float(p.double().sum()) for p in trainer.net.parameters())
    # one file per rank beside OUT_DIR: the ranks' prints on a shared pipe can interleave mid-line
    with open(f"{out_dir.rstrip('/')}.rank{trainer.dist.rank}", "w") as f:
        f.write(f"RANK {trainer.dist.rank} EXAMPLES {trainer.progress.examples} SUM {total!r}\n")
    torch.distributed.barrier()
    torch.distributed.destroy_process_group()
    # Leave without the interpreter's teardown: once in CI (torch 2.13, gloo), rank 0 aborted there
    # ("terminate called without an active exception") after a run whose results were all written.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
