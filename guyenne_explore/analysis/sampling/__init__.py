"""Sampled outcome distributions: seeded games played by the compiled path or by the engine, on the
local cores or a Dask cluster, stopped mid-game when cancelled.

:mod:`.sample` plays and counts the games; :mod:`.workers` holds the local process pool and each run's
stop flag.
"""
