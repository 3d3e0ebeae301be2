"""Two-player board games: numba rules kernels, one generic env, bots, rendering, terminal play."""
