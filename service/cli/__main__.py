"""``python -m service.cli``: the ``cardroom`` command."""

import sys

from service.cli import main

sys.exit(main())
