"""The learned policy's weights files: one per preset in the package, others trained for a variant.

A file names each weight by its feature (``{"weights": {"gain": 6.7, ...}}``), so a model trained for
other features is refused with the names that differ, never read in the wrong order.  It also says how
it was made (``trained``: rules, seed, generations, the command that reproduces it) and which rule set
its weights were trained for (``trained_for``: a preset's file may hold another preset's weights until
that preset is trained).  A file may also hold the weights of the model's own setup discard (``discard``, by the
discard's feature names: :mod:`.discard`); a file without them plays the heuristic's discard.  Likewise a team's
split (``team_split``, by the split's feature names: :mod:`.team_split`); a file without them plays the heuristic's
split.  A file may instead hold a mixture (:mod:`.mixture`): ``{"mixture": {"odds": [...], "members": [...]}}``, each
member a model as above (with its own ``trained``), one drawn by its odds at each decision.

The policy ``strong`` plays, under rules equal to a preset, that preset's file
(``weights/<preset>.json``: a network where one is trained, :mod:`.network`; ``strong-linear`` plays
``weights/linear/<preset>.json``, the linear weights alone); under a variant, the file of the preset the variant was made from
(``Rules.preset_name``: a team variant plays team weights, a variant of expert expert's), the
nearest play the package has trained.  Weights trained for a variant
are kept in the user's cache under the rules' fingerprint (:func:`cache_file`), and played by naming
their file: ``strong@FILE``.
"""

from __future__ import annotations

import functools
import json
import math
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from ...engine import PRESETS, Rules, rules_fingerprint
from ...i18n import gettext, plain_size
from ..compiled.policy_codes import FEATURES
from .discard import discard_json, discard_tail, split_discard, with_discard
from .team_split import split_team_split, team_split_json, team_split_tail, with_team_split
from .mixture import MAX_MEMBERS, Mixture, checked_odds
from .network import network_json, network_tail, split

#: the package's weights, one file a preset
WEIGHTS_DIR = Path(__file__).with_name("weights")
#: the preset whose weights play when no rules are given
FALLBACK = "advanced"
#: the folder of the linear policy's files (``strong-linear``), beside the files ``strong`` plays
LINEAR = "linear"
#: the features added since weights files were first written: a file without one reads its weight as 0, so a
#: file written before it was added plays as it did (every other feature must be named: a file that lacks one
#: was trained for other features)
ADDED = ("hero_set", "counted")
#: how a mixture file's ``drawn`` says when its member is drawn: at each decision (the default), or once a game
DRAWN = ("decision", "game")
#: the largest weights file read (a linear model's file holds about 2 kB, a network of 16 units about 15 kB)
MAX_WEIGHTS_BYTES = 200_000


class Model(NamedTuple):
    """A weights file's content: the weights in :data:`FEATURES`' order, then its network's numbers if it has one
    (:mod:`.network`), and how they were trained."""

    weights: tuple[float, ...]
    trained: dict[str, Any]
    trained_for: str
    #: a mixture's members and odds (:mod:`.mixture`; ``weights`` is then its first member's, where training
    #: starts); None: the model alone
    mixture: Mixture | None = None

    def played(self) -> Mixture:
        """What the policy plays: the mixture, else the model alone."""
        return self.mixture or Mixture.alone(self.weights)


def read_model(path: Path) -> Model:
    """The model of a weights file; a ValueError names the file and what is wrong (not a regular file, larger
    than :data:`MAX_WEIGHTS_BYTES`, not JSON, a feature missing or unknown to this policy, a weight that is no
    finite number).  At most that many bytes are read: a device (``/dev/zero``) or a huge file is refused in
    words, never read into memory."""
    try:
        # opened without blocking, so that a named pipe is refused at once rather than waited on
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise ValueError(gettext("the weights file {path}: not a regular file").format(path=path))
            data = fh.read(MAX_WEIGHTS_BYTES + 1)
    except OSError as exc:
        raise ValueError(gettext("the weights file {path}: {error}").format(
            path=path, error=exc.strerror or exc)) from None
    if len(data) > MAX_WEIGHTS_BYTES:
        raise ValueError(gettext("the weights file {path} is larger than {size}: not a weights file").format(
            path=path, size=plain_size(MAX_WEIGHTS_BYTES)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(gettext("the weights file {path}: not a text file (UTF-8)").format(path=path)) from None
    return model_from_text(text, str(path))


def model_from_text(text: str, where: str) -> Model:
    """The model a weights file's text holds (:func:`read_model` once read; a page's upload, checked before it is
    kept); a ValueError names ``where`` (the file) and what is wrong with the text."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # a RecursionError: brackets nested thousands deep
        raise ValueError(gettext("the weights file {path}: {error}").format(path=where, error=exc)) from None
    if isinstance(data, dict) and "mixture" in data:
        return _mixture_model(data, where)
    return _single_model(data, where)


def _mixture_model(data: dict[str, Any], where: str) -> Model:
    """The model of a mixture file's data (its first member's weights, and the whole mixture)."""
    mix = data["mixture"]
    members = mix.get("members") if isinstance(mix, dict) else None
    if not isinstance(members, list):
        raise ValueError(gettext("the weights file {path}: 'mixture' must be an object with odds and members").format(
            path=where))
    odds = checked_odds(mix.get("odds"), len(members), where)
    drawn = mix.get("drawn", DRAWN[0])
    if drawn not in DRAWN:
        raise ValueError(gettext("the weights file {path}: a mixture's 'drawn' is {choices}, not {value}").format(
            path=where, choices=" or ".join(repr(d) for d in DRAWN), value=repr(drawn)))
    models = []
    for j, member in enumerate(members):
        inner = gettext("{path}, member {number}").format(path=where, number=j + 1)
        if isinstance(member, dict) and "mixture" in member:
            raise ValueError(gettext("{where}: a member of a mixture is one model, not a mixture").format(where=inner))
        models.append(_single_model(member, inner).weights)
    return Model(models[0], dict(data.get("trained") or {}), str(data.get("trained_for", "")),
                 Mixture(tuple(models), odds, drawn == "game"))


def _single_model(data: object, where: str) -> Model:
    """The model of one model's data (a file's, or a mixture member's)."""
    named = data.get("weights") if isinstance(data, dict) else None
    if not isinstance(named, dict):
        raise ValueError(gettext("the weights file {path}: 'weights' must be an object of feature names and numbers").format(
            path=where))
    assert isinstance(data, dict)  # (it holds the weights object)
    net = data.get("network")
    tail: tuple[float, ...] = ()
    if net is not None:
        if not isinstance(net, dict):
            raise ValueError(gettext("the weights file {path}: 'network' must be an object with hidden, inputs, biases "
                                     "and outputs").format(path=where))
        tail = network_tail(net.get("hidden"), net.get("inputs"), net.get("biases"), net.get("outputs"), where)
    model = by_feature(named, where) + tail
    if "discard" in data:  # the model's own setup discard (without: the heuristic's)
        model = with_discard(model, discard_tail(data["discard"], where))
    if "team_split" in data:  # the model's own team split (without: the heuristic's)
        model = with_team_split(model, team_split_tail(data["team_split"], where))
    return Model(model, dict(data.get("trained") or {}), str(data.get("trained_for", "")))


def by_feature(named: dict[str, Any], where: str) -> tuple[float, ...]:
    """Weights by feature name as a tuple in :data:`FEATURES`' order (0 for a feature of :data:`ADDED` the file
    does not name); a ValueError names the features that differ (the model was trained for other features:
    retrain it) or the weight that is no finite number."""
    named = {**{n: 0.0 for n in ADDED}, **named}
    missing = [n for n in FEATURES if n not in named]
    unknown = sorted(set(named) - set(FEATURES))
    if missing or unknown:
        words = "; ".join(part for part in (
            gettext("missing {features}").format(features=", ".join(missing)) if missing else "",
            gettext("unknown {features}").format(features=", ".join(unknown)) if unknown else "") if part)
        raise ValueError(gettext("{where}: its features are not this policy's ({words}): retrain the model").format(
            where=where, words=words))
    out = []
    for name in FEATURES:
        w = named[name]
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(gettext("{where}: the weight of {name} must be a finite number, not {value}").format(
                where=where, name=name, value=repr(w)))
        out.append(float(w))
    return tuple(out)


def write_model(path: Path, weights: tuple[float, ...], trained: dict[str, Any], trained_for: str) -> None:
    """Write a weights file that :func:`read_model` reads (the folder made if needed; replaced whole, so a
    reader never sees half a file)."""
    _write(path, _model_json(weights, trained, trained_for))


def write_mixture(path: Path, members: list[Model], odds: tuple[int, ...], trained: dict[str, Any],
                  trained_for: str, per_game: bool = False) -> None:
    """Write a mixture's weights file (:mod:`.mixture`): ``members`` with their ``odds``, each member kept whole with
    its own ``trained`` record (the command that trains it again); ``trained``: how the mixture was formed;
    ``per_game``: its member drawn once a game (``"drawn": "game"``; a file without it draws at each decision)."""
    checked_odds(list(odds), len(members), str(path))
    if any(m.mixture is not None and not m.mixture.single for m in members):
        raise ValueError(gettext("{where}: a member of a mixture is one model, not a mixture").format(where=path))
    _write(path, {"trained_for": trained_for, "trained": trained, "mixture": {
        "odds": list(odds), **({"drawn": "game"} if per_game else {}),
        "members": [_model_json(m.weights, m.trained, m.trained_for) for m in members]}})


def mix_files(paths: list[Path], odds: tuple[int, ...] | None, out: Path, command: str,
              per_game: bool = False) -> Model:
    """Write at ``out`` the mixture of the models of ``paths`` (each one model, trained for the same rules) with
    ``odds`` (default: equal), its member drawn at each decision or once a game (``per_game``), recording
    ``command``, the command that forms it again; returns what it wrote.  A ValueError names the file or the odds
    that are wrong."""
    if not 2 <= len(paths) <= MAX_MEMBERS:
        raise ValueError(gettext("mix: give 2 to {most} weights files, not {count}").format(
            most=MAX_MEMBERS, count=len(paths)))
    odds = checked_odds(list(odds) if odds is not None else [1] * len(paths), len(paths), "--odds")
    members = [read_model(p) for p in paths]
    for path, member in zip(paths, members):
        if member.mixture is not None and not member.mixture.single:
            raise ValueError(gettext("{where}: a member of a mixture is one model, not a mixture").format(where=path))
        if member.trained_for != members[0].trained_for:
            raise ValueError(gettext("{path} was trained for {rules}, {first} for {first_rules}: a mixture's members "
                                     "play one rule set").format(path=path, rules=member.trained_for or "?",
                                                                 first=paths[0],
                                                                 first_rules=members[0].trained_for or "?"))
    trained = {"command": command, "members": [str(p) for p in paths]}
    write_mixture(out, members, odds, trained, members[0].trained_for, per_game)
    return Model(members[0].weights, trained, members[0].trained_for,
                 Mixture(tuple(m.weights for m in members), odds, per_game))


def _model_json(weights: tuple[float, ...], trained: dict[str, Any], trained_for: str) -> dict[str, Any]:
    """One model as a weights file writes it (:func:`_single_model` reads it)."""
    linear, net = split(weights)
    own, own_split = split_discard(weights)[1], split_team_split(weights)[1]
    data: dict[str, Any] = {"weights": dict(zip(FEATURES, linear)), "trained_for": trained_for, "trained": trained}
    if net:
        data["network"] = network_json(net)
    if own:
        data["discard"] = discard_json(own)
    if own_split:
        data["team_split"] = team_split_json(own_split)
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    """``data`` as JSON at ``path`` (the folder made if needed; replaced whole, so a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


@functools.lru_cache(maxsize=256)
def preset_of(rules: Rules) -> str | None:
    """The preset equal to ``rules`` (None for a variant); remembered, as the policy asks it at each decision."""
    return next((name for name in PRESETS if Rules.preset(name) == rules), None)


def preset_file(rules: Rules | None, linear: bool = False) -> Path:
    """The package's weights file for ``rules``: its preset's, else that of the preset the variant was made
    from (:data:`FALLBACK`'s when no rules are given); ``linear``: the linear policy's (``strong-linear``, the
    policy before its network, kept as a level of its own and as the network's yardstick)."""
    name = FALLBACK if rules is None else preset_of(rules) or rules.preset_name
    return (WEIGHTS_DIR / LINEAR if linear else WEIGHTS_DIR) / f"{name}.json"


def trained_preset(rules: Rules) -> str | None:
    """The preset ``rules`` are when the package ships weights trained for it (None for a variant, or a
    preset whose file holds another preset's weights until it is trained): training again is then a
    choice, not a need."""
    name = preset_of(rules)
    return name if name is not None and read_model(preset_file(rules)).trained_for == name else None


@functools.lru_cache(maxsize=None)
def shipped(path: Path) -> tuple[float, ...]:
    """A package file's weights (a mixture's first member's: where training starts), read once per process."""
    return read_model(path).weights


@functools.lru_cache(maxsize=None)
def shipped_mixture(path: Path) -> Mixture:
    """What a package file's policy plays (:meth:`Model.played`), read once per process."""
    return read_model(path).played()


def cache_dir() -> Path:
    """Where weights trained for variants are kept: ``$GUYENNE_CACHE``, else the user's cache folder."""
    base = os.environ.get("GUYENNE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "guyenne_explore")
    return Path(base) / "strong"


def cache_file(rules: Rules) -> Path:
    """The weights file trained for ``rules`` in the user's cache (it may not exist yet)."""
    return cache_dir() / f"{rules_fingerprint(rules)}.json"
