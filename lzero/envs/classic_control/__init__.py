"""gymnasium's classic-control tasks as numba kernels: one small module per task, and
:mod:`.stepper`, which steps a batch of any of them (its ``TASKS`` lists the gymnasium ids).
"""
