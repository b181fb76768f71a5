"""bench/gtp_timer.py: the GTP pass-through forwards answers unchanged and logs one line per command."""

import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMER = os.path.join(ROOT, "bench", "gtp_timer.py")
spec = importlib.util.spec_from_file_location("gtp_timer", TIMER)
gtp_timer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gtp_timer)

# a GTP engine in one line: "= <command>" and the empty line that ends an answer, "quit" ends it
FAKE = ("import sys\n"
        "for line in sys.stdin:\n"
        "    words = line.split()\n"
        "    if not words or words[0].startswith('#'): continue\n"
        "    print('= ' + ' '.join(words) + '\\n', flush=True)\n"
        "    if words[-1] == 'quit': break\n")


def test_the_proxy_forwards_each_answer_and_logs_each_command(tmp_path):
    log = tmp_path / "log"
    commands = "1 owl_attack A1\n# a comment\n\nowl_defend B2\n2 attack C3\n3 quit\n"
    p = subprocess.Popen([sys.executable, TIMER, str(log), "--", sys.executable, "-c", FAKE],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(commands)
    p.stdin.flush()                  # stdin stays open, as a GTP client keeps it: quit ends the proxy
    try:
        assert p.wait(timeout=60) == 0
    finally:
        p.kill()
    assert p.stdout.read() == "= 1 owl_attack A1\n\n= owl_defend B2\n\n= 2 attack C3\n\n= 3 quit\n\n"
    lines = log.read_text().splitlines()
    assert [line.split("\t")[1] for line in lines] == ["1 owl_attack A1", "owl_defend B2",
                                                        "2 attack C3", "3 quit"]
    assert len(gtp_timer.times(str(log))) == 2
    assert len(gtp_timer.times(str(log), commands=("attack",))) == 1


def test_percentile_by_nearest_rank():
    values = [5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    assert gtp_timer.percentile(values, 0.5) == 5.0
    assert gtp_timer.percentile(values, 0.9) == 9.0
    assert gtp_timer.percentile(values, 1.0) == 10.0
    assert gtp_timer.percentile([2.5], 0.9) == 2.5
    assert gtp_timer.percentile([], 0.5) != gtp_timer.percentile([], 0.5)     # nan
