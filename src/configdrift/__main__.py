import sys

from configdrift.cli import main

sys.exit(main())
