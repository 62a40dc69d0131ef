"""Analysis on the engine's public API: exact and sampled outcome distributions, policies, metrics."""
