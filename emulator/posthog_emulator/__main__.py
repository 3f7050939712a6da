"""``python -m posthog_emulator``: see :mod:`posthog_emulator.cli`."""

import sys

from posthog_emulator.cli import main

if __name__ == "__main__":
    sys.exit(main())
