"""``python -m cdpagent``: the ``cdpagent`` command."""

import sys

from .commandline.main import main

sys.exit(main())
