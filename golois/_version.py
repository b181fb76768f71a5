"""The release number, read from one place: the package metadata (pyproject.toml's `version`),
through the installed distribution or, in a checkout run without installing, the file itself.

GTP `version` answers it.  Lizzie reads the answer as Leela Zero's and refuses to analyse when
its second number is under 15, so the minor number stays at 15 or more."""

from __future__ import annotations

import os


def _read() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version("golois")
        except PackageNotFoundError:
            pass
    except ImportError:
        pass
    import tomllib
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "0.0.0+unknown"


__version__ = _read()
