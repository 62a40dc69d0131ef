"""The analysis' sub-door for training the learned policy: its weights trained by self-play
(:mod:`.policies.train`), improved by the search (:mod:`.policies.improvement`), and read and written as files
(:mod:`.policies.weights`).  The floors above import the names below from here, not from those modules, which
also serve the policies themselves.
"""

from __future__ import annotations

from .policies.improvement import (IMPROVE_DEFAULTS, ImproveProgress, ImproveRun, check_improve, estimate_improve,
                                   improve, write_improved)
from .policies.train import (TRAIN_DEFAULTS, Trained, TrainingProgress, check_training, estimate_training, read_state,
                             start_model, train, weights_by_feature, write_weights)
from .policies.weights import MAX_WEIGHTS_BYTES, cache_file, model_from_text, read_model, trained_preset

__all__ = ["TRAIN_DEFAULTS", "Trained", "TrainingProgress", "check_training", "estimate_training", "read_state",
           "start_model", "train", "weights_by_feature", "write_weights",
           "IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "check_improve", "estimate_improve", "improve",
           "write_improved",
           "MAX_WEIGHTS_BYTES", "cache_file", "model_from_text", "read_model", "trained_preset"]
