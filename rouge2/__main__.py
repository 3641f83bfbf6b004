import sys

from rouge2.cli import main

sys.exit(main())
