"""golois.nn: the policy network, the shipped files and their training.

- `model.py`: `PolicyNet` and the narrow `Network` interface (numpy in, numpy out:
  `evaluate(batch) -> policy, value`), model files;
- `registry.py`: which file `--model full|small|PATH` names, and loading it;
- `train_config.py`: `TrainConfig`, every setting of a training run;
- `train_cli.py`: the command line of `python train.py` / `golois train`;
- `training.py`: the `Trainer` (data order, checkpoints, exact resume, torchrun);
- `checkpoints.py`: model files from checkpoints (export, weight averaging);
- `precision.py`: how a network runs (fp32, bf16, int8, auto), and `calibrate.py` the int8 ranges.

The shipped weights are in golois/weights/.  Start with `model.Network`.
"""
