"""The command line of training (`python train.py`, `golois train`): one flag per
`TrainConfig` field, its default read from the dataclass; `run` trains, exports or averages.

Start with `build_parser`.  torch is imported only when a run starts, so `golois --help` stays fast.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Sequence

from golois.nn.train_config import AUGMENTS, LOSSES, LR_SCALINGS, OPTIMIZERS, TEST_SPLITS, TrainConfig, parse_count


# --------------------------------------------------------------------------- CLI

TRAIN_DESCRIPTION = "Train the Golois policy network (SGD on expert moves)."


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Command-line flags, one per :class:`TrainConfig` field (added to p when given)."""
    d = TrainConfig()
    if p is None:
        p = argparse.ArgumentParser(prog="train.py", description=TRAIN_DESCRIPTION,
                                    formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--data", help="dataset path for golois.datasets.open_dataset (required to train)")
    p.add_argument("--test-data", default=None, help="held-out dataset (default: --data)")
    p.add_argument("--test-split", choices=TEST_SPLITS, default=d.test_split,
                   help="the held-out positions: test (the canonical 2015 sample), test-all (every test-year "
                        "position) or all (every position: a smoke run)")
    p.add_argument("--out-dir", default=d.out_dir, help="checkpoint, log.csv, learning_curve.png, model.pt")
    p.add_argument("--preset", default=d.preset, help="golois (12x256, the paper's), medium, small, tiny")
    p.add_argument("--batch-size", type=int, default=d.batch_size, help="1 = the paper's one example at a time")
    p.add_argument("--lr-schedule", default=d.lr_schedule, help="rate@examples,... (k/M/G suffixes)")
    p.add_argument("--lr-scaling", choices=LR_SCALINGS, default=d.lr_scaling,
                   help="rate multiplier for a mean loss over B examples: 1, sqrt(B) or B")
    p.add_argument("--optimizer", choices=OPTIMIZERS, default=d.optimizer,
                   help="sgd (the paper's; --momentum, --nesterov) or adam (the rate is its step size)")
    p.add_argument("--momentum", type=float, default=d.momentum)
    p.add_argument("--nesterov", action="store_true")
    p.add_argument("--weight-decay", type=float, default=d.weight_decay)
    p.add_argument("--clip-grad", type=float, default=d.clip_grad, help="max gradient norm (0: off)")
    p.add_argument("--loss", choices=LOSSES, default=d.loss, help="xent (softmax) or mse on raw outputs")
    p.add_argument("--no-softmax", dest="loss", action="store_const", const="mse",
                   help="same as --loss mse: the paper's learning without a final softmax")
    p.add_argument("--max-examples", type=parse_count, default=d.max_examples)
    p.add_argument("--checkpoint-every", type=parse_count, default=d.checkpoint_every)
    p.add_argument("--eval-every", type=parse_count, default=d.eval_every)
    p.add_argument("--eval-positions", type=parse_count, default=d.eval_positions)
    p.add_argument("--log-every", type=parse_count, default=d.log_every)
    p.add_argument("--augment", choices=AUGMENTS, default=d.augment,
                   help="who applies the random one-of-8 symmetry to training examples")
    p.add_argument("--workers", type=int, default=d.workers, help="DataLoader worker processes")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--resume", nargs="?", const="auto", default=None,
                   help="continue from OUT_DIR/checkpoint.pt, or from the given checkpoint")
    p.add_argument("--init-from", default=None, help="start from this model file's weights (fresh optimizer)")
    p.add_argument("--export", nargs=2, metavar=("CHECKPOINT", "MODEL"),
                   help="write MODEL (fp16) from a training checkpoint, e.g. of a running run, and exit")
    p.add_argument("--average", nargs="+", metavar="PATH",
                   help="MODEL INPUT INPUT...: write MODEL (fp16) with the mean weights of the inputs "
                        "(checkpoints or model files of one network; golois.nn.checkpoints), and exit")
    p.add_argument("--device", default=d.device, help="auto, cpu, cuda")
    p.add_argument("--no-amp", dest="amp", action="store_false", help="no mixed precision on CUDA")
    p.add_argument("--no-channels-last", dest="channels_last", action="store_false",
                   help="keep NCHW tensors (channels_last is faster on CPU and with CUDA AMP)")
    p.add_argument("--fp16-weights", action="store_true", help="store the final model's weights as fp16")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no tqdm bar")
    v = p.add_argument_group("value head (the game's winner from the position; data with results)")
    v.add_argument("--value-weight", type=float, default=d.value_weight,
                   help="weight of the value loss (mean squared error on +1/-1) beside the policy loss; "
                        "0: no value head")
    v.add_argument("--value-per-game", type=int, default=d.value_per_game,
                   help="value targets on about this many positions of each game (0: all)")
    v.add_argument("--value-kind", default=d.value_kind, help="the head's shape: pool or conv")
    v.add_argument("--freeze-trunk", action="store_true",
                   help="train only the value head, on the trunk of --init-from (the policy is unchanged)")
    v.add_argument("--value-inputs", action="store_true", default=d.value_inputs,
                   help="the value head reads the colour to move and the komi (two constant input planes)")
    v.add_argument("--value-from-move", type=int, default=d.value_from_move,
                   help="positions before this move number carry no value target")
    v.add_argument("--ownership-weight", type=float, default=d.ownership_weight,
                   help="weight of the ownership loss (mean squared error of the conv head's map on each "
                        "point's final owner, on games with a judged ownership: `golois rollout ownership`); 0: none")
    v.add_argument("--value-patience", type=int, default=d.value_patience,
                   help="stop after N evaluations without a lower held-out value loss (0: never); "
                        "the best model is OUT_DIR/best.pt")
    return p


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """The :class:`TrainConfig` for parsed arguments."""
    names = {f.name for f in dataclasses.fields(TrainConfig)}
    return TrainConfig(**{k: v for k, v in vars(args).items() if k in names})


def add_parser(subparsers) -> None:
    """`golois train`: the same options as train.py."""
    p = subparsers.add_parser("train", help="train a policy network (as train.py)", description=TRAIN_DESCRIPTION,
                              formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    build_parser(p)
    p.set_defaults(func=lambda args: run(args, p))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``train.py``: parse, train, print where the model is."""
    parser = build_parser()
    return run(parser.parse_args(argv), parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Export, average, or train, as the parsed options say."""
    import torch

    from golois.nn.checkpoints import average_weights, export_checkpoint
    from golois.nn.training import Trainer
    if args.export:
        meta = export_checkpoint(*args.export)
        print(f"wrote {args.export[1]}: {meta.examples} examples, accuracy {meta.accuracy}", file=sys.stderr)
        return 0
    if args.average:
        if len(args.average) < 3:
            parser.error("--average needs MODEL and at least two inputs")
        meta = average_weights(args.average[1:], args.average[0])
        print(f"wrote {args.average[0]}: mean of {len(args.average) - 1} inputs, {meta.examples} examples",
              file=sys.stderr)
        return 0
    if not args.data:
        parser.error("--data is required to train")
    config = config_from_args(args)
    try:
        trainer = Trainer(config)
    except FileExistsError as e:
        parser.error(str(e))
    summary = trainer.train()
    if trainer.dist.is_main:
        acc = trainer.accuracy_meta()
        print(f"trained {summary['examples']} examples; model: {trainer.model_path}"
              + (f"; test top-1 {100 * acc['top1']:.2f}%" if acc else ""), file=sys.stderr)
    if trainer.dist.enabled and torch.distributed.is_initialized():
        torch.distributed.destroy_process_group()
    return 0
