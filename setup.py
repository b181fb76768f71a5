"""Build the Cython extensions of `tactics`.

Compiler directives are set here once for the whole project.  Build with GOLOIS_DEBUG=1 to turn
bounds checks, wraparound checks and assertions on (slow; for hunting memory bugs)."""

import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("GOLOIS_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "infer_types": True,
    "embedsignature": True,
}

MODULES = ["board", "strings", "ladder", "features", "benson", "eyes", "moves", "knowledge", "dfpn", "solver", "capture", "playouts", "rollout"]

extensions = [
    Extension(
        f"tactics.{name}",
        [f"tactics/{name}.pyx"],
        include_dirs=[np.get_include()],
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name in MODULES
    if os.path.exists(f"tactics/{name}.pyx")
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, quiet=True))
