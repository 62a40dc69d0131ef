"""guyenne_explore: explore the rules of Guyenne, a 2-player bluff and hand-management card game.

The floors, each importing only the ones below it through its door:
:mod:`guyenne_explore.engine` (rules, positions, legal moves, chance outcomes; no Jupyter,
plotting or compiler), :mod:`guyenne_explore.analysis` (exact and sampled answers, policies,
the designer's studies), :mod:`guyenne_explore.render` (figures, diagrams, reports) and
:mod:`guyenne_explore.widgets` (the explorer), with the command line beside the widgets::

    from guyenne_explore.engine import Position
    p = Position.from_json(open("position.json").read())
    print(len(p.legal_moves), p.why_illegal("3:H5"))
"""

__version__ = "0.1.0"
