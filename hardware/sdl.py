"""pygame, imported the one way the companion imports it: quiet, and without ``pkg_resources``.

``import pygame`` runs ``pygame.pkgdata``, which imports setuptools' ``pkg_resources`` only to
look for its bundled font inside a zipped egg; ``pkg_resources`` scans every installed
distribution as it loads, about 10 MiB of the service's resident memory (half of what pygame
costs). Without it ``pkgdata`` falls back, by its own design, to opening the font from
pygame's folder, which is where a wheel or the OS's python3-pygame keeps it. So
``pkg_resources`` is hidden for the length of the import only, and anyone may import it after.
The support prompt pygame prints on import would land on a simulated table's terminal or in
a bench child's JSON.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
_HIDE = "pkg_resources" not in sys.modules
if _HIDE:
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # import raises ImportError
try:
    import pygame
finally:
    if _HIDE:
        del sys.modules["pkg_resources"]

__all__ = ["pygame"]
