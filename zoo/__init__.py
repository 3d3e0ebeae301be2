"""Games and tasks built on the ``lzero`` library (``lzero`` never imports ``zoo``)."""
