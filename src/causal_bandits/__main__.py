import sys

from causal_bandits.cli import main

sys.exit(main())
