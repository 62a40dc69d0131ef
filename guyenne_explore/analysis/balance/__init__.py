"""The balance lab: search the rules parameters for settings that meet a designer's targets, and measure
a rule set's skill depth and luck.

- :mod:`.targets`: targets as values (``advantage=0.48:0.52``) and the one objective they make;
- :mod:`.space`: the varied parameters, each candidate's rule set and its changes from the preset;
- :mod:`.racing`: games in rungs, common random numbers, dropping a candidate that misses a target;
- :mod:`.measure`: a candidate's games and metrics, rung by rung;
- :mod:`.search`: optuna's sampler over the space, the stored study, the ranked result;
- :mod:`.depth`: the ladder of skill levels, the skill chain, the weaker level's wins, the luck share.
"""
