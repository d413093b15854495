"""`falseclaims serve`: the commands as a local web page (docs/web.md).

Binds 127.0.0.1 only (a page for this computer, not a public service); needs the `web`
extra (``pip install "falseclaims[web]"``).
"""

from __future__ import annotations

from falseclaims.cli import UsageError


EPILOG = """examples:
  falseclaims serve
  falseclaims serve --port 8765 --max-upload-mb 50

Open the address it prints in a browser on this computer; Ctrl-C stops the server.

exit codes: 0 stopped with Ctrl-C; 2 bad arguments, a bad config or the 'web' extra missing
(one line on stderr)"""


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="a local web page: check a claim, plan, per-case files, tables",
        description="Start a web page on 127.0.0.1 for checking a claim, planning a test set, "
                    "per-case results and results tables; every result is the JSON and HTML "
                    "report the command writes. Nothing is stored after a request; nothing "
                    "is fetched from the network.",
        epilog=EPILOG)
    p.add_argument("--port", type=int, default=0,
                   help="port on 127.0.0.1 (default 0: a free port the system chooses)")
    p.add_argument("--config", help="config file of the commands (as their --config)")
    p.add_argument("--max-upload-mb", type=float, default=20.0,
                   help="largest upload accepted, in MB (default 20)")
    p.add_argument("--time-limit", type=float, default=120.0,
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
        raise UsageError(f"the web page needs the 'web' extra ({exc.name} is missing): "
                         "pip install 'falseclaims[web]'") from None
    serve(args.port, args.config, args.max_upload_mb, args.time_limit,
          announce=lambda line: print(line, flush=True))
    return 0
