"""Golois: a tactics-aware Go policy player (after Cazenave, "Combining tactical
search and deep learning in the game of Go").

Subpackages and modules are imported lazily by their users; importing
``golois`` itself does nothing heavy (no torch import).
"""

from golois._version import __version__  # noqa: E402,F401
