"""``python -m guyenne_explore``: the command line."""

import sys

from .cli import main

sys.exit(main())
