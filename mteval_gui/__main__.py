import sys

from mteval_gui.cli import main

sys.exit(main())
