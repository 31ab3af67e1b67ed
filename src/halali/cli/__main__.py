"""``python -m halali.cli``: the ``halali`` command without the installed script (tests, other venvs)."""

import sys

from halali.cli import main

sys.exit(main())
