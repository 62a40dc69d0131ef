"""The balance lab: search the rules parameters for settings that meet a designer's targets, and measure
a rule set's skill depth and luck.

- :mod:`.targets`: targets as values (``advantage=0.48:0.52``), their distances, the trade-off front;
- :mod:`.space`: the varied parameters, each candidate's rule set and its changes from the preset;
- :mod:`.racing`: games in rungs, common random numbers, dropping a candidate that misses a target;
- :mod:`.measure`: a candidate's games and metrics, rung by rung;
- :mod:`.search`: optuna's sampler over the space (TPE for one target, NSGA-II for several), the stored
  study, the ranked result and the trade-off front;
- :mod:`.depth`: the ladder of skill levels, the skill chain, the weaker level's wins, the luck share.
"""
