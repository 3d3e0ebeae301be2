"""Makes the plain-Python Othello (othello_reference) importable by these tests."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
