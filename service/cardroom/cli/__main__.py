"""``python -m cardroom.cli``: the ``cardroom`` command."""

import sys

from cardroom.cli import main

sys.exit(main())
