"""Talk GTP to another engine (GNU Go, or ourselves) through a pipe.

`GtpClient(["gnugo", "--mode", "gtp"])` starts the engine; `send("play b D4")` returns the answer
text without the leading '= ', and raises `GtpError` on a '? ...' failure.  `find_gnugo()` locates
GNU Go 3.8 (Debian installs it in /usr/games, which is often not on PATH).
"""

from __future__ import annotations

import os
import shutil
import subprocess


class GtpError(RuntimeError):
    """The engine answered '? message', or died."""


def find_gnugo() -> str | None:
    """Path of the gnugo binary, or None when it is not installed."""
    return shutil.which("gnugo") or next(
        (p for p in ("/usr/games/gnugo", "/usr/local/games/gnugo") if os.access(p, os.X_OK)), None
    )


class GtpClient:
    """A GTP engine in a subprocess; use as a context manager or call close()."""

    def __init__(self, command: list[str], cwd: str | None = None, stderr=subprocess.DEVNULL):
        self.command = list(command)
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            text=True, bufsize=1, cwd=cwd,
        )

    def send(self, command: str) -> str:
        """Send one command; return the success answer's text, or raise GtpError."""
        if self.proc.poll() is not None:
            raise GtpError(f"{self.command[0]} has exited (code {self.proc.returncode})")
        self.proc.stdin.write(command.strip() + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise GtpError(f"{self.command[0]} died answering {command!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line != "" or lines:
                lines.append(line)
        text = "\n".join(lines)
        status, _, rest = text.partition(" ") if len(text) > 1 else (text, "", "")
        body = text[1:].lstrip()
        # strip an optional command id: '=12 answer'
        if len(status) > 1 and status[1:].isdigit():
            body = rest
        if text.startswith("?"):
            raise GtpError(f"{command!r}: {body}")
        if not text.startswith("="):
            raise GtpError(f"{command!r}: malformed answer {text!r}")
        return body

    def close(self) -> None:
        """Send quit and reap the process."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except (GtpError, BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
