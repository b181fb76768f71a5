"""A GTP pass-through that times each command: sits between a GTP client and any engine.

    python bench/gtp_timer.py LOG -- ENGINE ARGS...

Forwards stdin to the engine and the engine's answers to stdout unchanged, and appends one line
per command to LOG: the seconds from sending it to the end of its answer, a tab, the command.
bench/regression_bench.py runs both engines through it for the seconds per owl answer; `times`
reads a LOG back.  Start reading at `main`.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time


def times(log: str, commands=("owl_attack", "owl_defend")) -> list[float]:
    """The seconds of LOG's lines whose command (after an optional id) is one of `commands`."""
    out = []
    with open(log) as f:
        for line in f:
            seconds, _, cmd = line.rstrip("\n").partition("\t")
            words = cmd.split()
            if words and words[0].isdigit():
                words = words[1:]
            if words and words[0] in commands:
                out.append(float(seconds))
    return out


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values by the nearest rank; nan for none."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s), max(1, math.ceil(q * len(s)))) - 1]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3 or argv[1] != "--":
        print("usage: gtp_timer.py LOG -- ENGINE ARGS...", file=sys.stderr)
        return 2
    log, engine = argv[0], argv[2:]
    p = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    with open(log, "a") as out:
        for line in sys.stdin:
            cmd = line.strip()
            t = time.perf_counter()
            p.stdin.write(line if line.endswith("\n") else line + "\n")
            p.stdin.flush()
            if not cmd or cmd.startswith("#"):
                continue                            # GTP: no answer to an empty line or a comment
            answer = []
            while True:
                got = p.stdout.readline()
                if got == "":
                    break                           # the engine ended
                answer.append(got)
                if got.strip() == "" and len(answer) > 1:
                    break
            sys.stdout.write("".join(answer))
            sys.stdout.flush()
            out.write(f"{time.perf_counter() - t:.4f}\t{cmd}\n")
            out.flush()
            words = cmd.split()
            if not answer or words[int(words[0].isdigit()):][:1] == ["quit"]:
                break                               # the engine ended, or will: so does the proxy
    p.stdin.close()
    return p.wait()


if __name__ == "__main__":
    sys.exit(main())
