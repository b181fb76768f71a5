"""`golois dataset ...`: build shards, make the canonical test sample, describe shards.

    golois dataset build [--sources ../shared/data/kgs [../shared/data/tygem ...]] [--out data/shards]
                         [--features golois] [--workers N] [--min-rank 6] [--heldout 2008-12]
                         [--games-per-shard 1000] [--force]
    golois dataset sample [--sources ../shared/data/kgs/KGS-2015-19-8133-.tar.gz] [--out FILE]
    golois dataset info PATH             counts, splits, and the games' results per source
    golois dataset features [NAME]

Start with `add_parser`; each job is a small function over the library.
"""

from __future__ import annotations

import argparse
import json
import os

from golois import paths
from golois.datasets.shards import BuildConfig
from golois.datasets.sources import FilterConfig


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("dataset", help="build training/test shards from KGS archives and Tygem months")
    sub = p.add_subparsers(dest="dataset_command", metavar="JOB", required=True)
    d, filters = BuildConfig(), FilterConfig()
    b = sub.add_parser("build", help="build (or resume) shards", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    b.add_argument("--sources", nargs="+", default=list(d.sources),
                   help="each a folder of archives, an archive, a folder of SGF, or a Tygem folder "
                        "(its monthly archives, results from its index); a Tygem month is one archive")
    b.add_argument("--out", default=d.out)
    b.add_argument("--features", default=d.feature_set, help="feature set name")
    b.add_argument("--workers", type=int, default=d.workers)
    b.add_argument("--min-rank", type=int, default=filters.min_rank, help="both players at least this many dan")
    b.add_argument("--heldout", nargs="*", default=list(filters.heldout_sources),
                   help="archives (names without suffix) kept out of training: the 'heldout' split")
    b.add_argument("--games-per-shard", type=int, default=d.games_per_shard)
    b.add_argument("--force", action="store_true", help="rebuild shards of another configuration")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=_build)
    s = sub.add_parser("sample", help="(re)make the canonical test sample manifest")
    s.add_argument("--sources", default=os.path.join(paths.KGS, "KGS-2015-19-8133-.tar.gz"))
    s.add_argument("--out", default=None, help="default: golois/datasets/test_sample.json.gz")
    s.add_argument("--positions", type=int, default=100_000)
    s.set_defaults(func=_sample)
    i = sub.add_parser("info", help="describe the shards at PATH")
    i.add_argument("path")
    i.set_defaults(func=_info)
    f = sub.add_parser("features", help="list feature sets and their planes")
    f.add_argument("name", nargs="?")
    f.set_defaults(func=_features)


def _build(args) -> int:
    from golois.datasets.shards import build
    cfg = BuildConfig(sources=tuple(args.sources), out=args.out, feature_set=args.features,
                      filters=FilterConfig(min_rank=args.min_rank, heldout_sources=tuple(args.heldout)),
                      games_per_shard=args.games_per_shard,
                      workers=args.workers, force=args.force, progress=not args.quiet)
    summary = build(cfg)
    print(json.dumps(summary, indent=1))
    return 0


def _sample(args) -> int:
    from golois.datasets import sample
    manifest = sample.make_manifest(args.sources, n=args.positions)
    sample.save_manifest(manifest, args.out or sample.MANIFEST)
    print(f"{manifest['positions']} positions of {len(manifest['games'])} games "
          f"(population {manifest['population']}), checksum {manifest['checksum']}")
    return 0


def _info(args) -> int:
    from golois.datasets.loader import shard_folders
    from golois.datasets.shards import Shard, summarize
    from golois.datasets.results import summarize_results
    shards = [Shard(f) for f in shard_folders(args.path)]
    root = args.path if os.path.isdir(os.path.join(args.path, "shards")) else os.path.dirname(os.path.dirname(args.path))
    summary = summarize(root, [s.meta for s in shards])
    summary["results"] = summarize_results(shards)
    print(json.dumps(summary, indent=1))
    return 0


def _features(args) -> int:
    from golois.datasets.features import FEATURE_SETS, get_feature_set
    for name in [args.name] if args.name else FEATURE_SETS:
        print(get_feature_set(name).describe())
    return 0
