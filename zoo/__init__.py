"""Games and tasks built on the ``lzero`` library (``lzero`` never imports ``zoo``)."""

import os

import lzero
from lzero.utils.numba_cache import stamp_kernels

# zoo's kernels inline lzero's and each other's: any change to either package rebuilds them.
stamp_kernels(os.path.dirname(os.path.abspath(__file__)), os.path.dirname(lzero.__file__))
