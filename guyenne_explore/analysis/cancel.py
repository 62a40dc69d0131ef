"""Cancelling a long analysis from its progress callback."""


class Cancelled(Exception):
    """Raised inside an analysis when its caller asked to stop."""
