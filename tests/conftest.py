"""Shared fixtures: a GNU Go GTP process (skipped only when GNU Go is missing outside CI)."""

import os

import pytest

from golois.gtp.client import GtpClient, find_gnugo


def _gnugo_path():
    path = find_gnugo()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("GNU Go is required in CI (.ci/run installs it)")
        pytest.skip("GNU Go 3.8 not installed")
    return path


@pytest.fixture(scope="session")
def gnugo_path():
    """Path of the gnugo binary."""
    return _gnugo_path()


@pytest.fixture
def gnugo(gnugo_path):
    """A fresh `gnugo --mode gtp` process."""
    with GtpClient([gnugo_path, "--mode", "gtp", "--level", "0"]) as engine:
        yield engine
