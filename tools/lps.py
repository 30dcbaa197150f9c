"""The `lps` executable (`python -m tools.lps`, and the `lps` console script).

Its only work before handing over to `tools.cli`: until LPS is imported (about 0.1 s, longer on a loaded machine),
Ctrl-C ends the command as SIGINT's default action does, quietly, instead of as a KeyboardInterrupt traceback
from inside whichever import it interrupted. Nothing has started by then, so there is nothing to stop in order.
Then Python's own Ctrl-C handling comes back, and each command stops the way it documents.
"""

# The builtin the signal module wraps: `import signal` would first import enum, which is slow enough to be interrupted.
import _signal  # type: ignore[import-not-found]  # typeshed has stubs for signal only

# At import, deliberately: this module is only ever the program's entry point, and the window it closes starts here.
_signal.signal(_signal.SIGINT, _signal.SIG_DFL)

import sys  # noqa: E402 (after the line above, on purpose)


def main() -> int:
    from tools.cli import main as run_command

    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    return run_command()


if __name__ == "__main__":
    sys.exit(main())
