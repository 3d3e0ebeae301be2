"""Makes the shared gym-task checks (../classic_control/gym_tasks.py) importable."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "classic_control"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
