"""torchrun --nproc_per_node 2 on CPU (gloo): ranks stay in sync, rank 0 writes, resume is exact."""

import os
import re
import socket
import subprocess
import sys

import pytest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun(out_dir, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.getcwd())
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
           "--master_addr", "127.0.0.1", "--master_port", str(free_port()), "tests/ddp_worker.py", out_dir, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    text = "".join(open(f"{out_dir}.rank{rank}").read() for rank in (0, 1))
    return dict((int(a), (int(b), c)) for a, b, c in re.findall(r"RANK (\d) EXAMPLES (\d+) SUM (\S+)", text))


@pytest.mark.slow
def test_torchrun_two_cpu_processes(tmp_path):
    full = torchrun(str(tmp_path / "full"))
    assert full[0] == full[1]  # DDP keeps both ranks' weights identical
    assert full[0][0] == 264  # 2 ranks x 16 per step; 200 per epoch, so 192 + 8 + 64
    assert sorted(os.listdir(tmp_path / "full")) == ["checkpoint.pt", "learning_curve.png", "log.csv", "model.pt"]
    torchrun(str(tmp_path / "res"), "5")  # killed after 5 steps = 160 examples; checkpoint at 128
    resumed = torchrun(str(tmp_path / "res"), "-", "resume")
    assert resumed == full
