"""`falseclaims serve`: the commands as a local web page (docs/web.md).

Binds 127.0.0.1 only (a page for this computer, not a public service); needs the `web`
extra, which is flask (``pip install -e ".[web]"`` in the checkout, or ``pip install flask``).
"""

from __future__ import annotations

import argparse
import errno
import socket

from falseclaims.cli import UsageError, count


EPILOG = """examples:
  falseclaims serve
  falseclaims serve --port 8765 --max-upload-mb 50

Open the address it prints in a browser on this computer; Ctrl-C stops the server.

exit codes: 0 stopped with Ctrl-C; 2 bad arguments, a bad config or the 'web' extra missing
(one line on stderr)"""


def _amount(text: str) -> float:
    """argparse type of a size or a time: one line in the commands' words (the fraction
    hints of ``number``, '5%' -> 0.05, would mislead for megabytes and seconds)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="a local web page: check a claim, plan, per-case files, tables",
        description="Start a web page on 127.0.0.1 for checking a claim, planning a test set, "
                    "per-case results and results tables; every result is the JSON and HTML "
                    "report the command writes. Nothing is stored after a request; nothing "
                    "is fetched from the network.",
        epilog=EPILOG)
    p.add_argument("--port", type=count, default=0,
                   help="port on 127.0.0.1 (default 0: a free port the system chooses)")
    p.add_argument("--config", help="config file of the commands (as their --config)")
    p.add_argument("--max-upload-mb", type=_amount, default=20.0,
                   help="largest upload accepted, in MB (default 20)")
    p.add_argument("--time-limit", type=_amount, default=120.0,
                   help="seconds a per-case or table run may take (default 120)")
    p.set_defaults(handler=run)


def run(args) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be in [0, 65535]; got {args.port}")
    if not 0 < args.max_upload_mb <= 1024:
        raise UsageError(f"--max-upload-mb must be in (0, 1024]; got {args.max_upload_mb:g}")
    if not 0 < args.time_limit <= 3600:
        raise UsageError(f"--time-limit must be in (0, 3600] seconds; got {args.time_limit:g}")
    try:
        from falseclaims.web import serve
    except ImportError as exc:  # flask is the optional `web` extra
        # named by what to install: 'falseclaims[web]' would ask a package index for a
        # distribution of that name, not the checkout the package was installed from
        raise UsageError(f"the web page needs the 'web' extra ({exc.name} is missing): "
                         f"pip install {exc.name} (in the checkout: pip install -e '.[web]')"
                         ) from None
    _port_free(args.port)
    serve(args.port, args.config, args.max_upload_mb, args.time_limit,
          announce=lambda line: print(line, flush=True))
    return 0


def _port_free(port: int) -> None:
    """A port in use is one line like every refusal (werkzeug printed two lines of its own
    and exited with 1)."""
    if not port:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            why = ("in use by another program" if exc.errno == errno.EADDRINUSE
                   else f"not available ({exc.strerror})")
            raise UsageError(f"--port {port}: {why}; choose another port, or --port 0 for a "
                             "free one") from None
