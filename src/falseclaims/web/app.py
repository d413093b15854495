"""The Flask application of `falseclaims serve`: four pages, their JSON answers, downloads.

Every page posts its form to ``/api/<page>``; the answer is JSON ``{ok, errors, html,
envelope, envelope_text[, report], units}``: ``errors`` maps a field to the command's message,
``html`` is the result rendered by the package templates (jinja2 autoescape), ``envelope``
the command's ``--json`` output (``envelope_text`` as it printed it) and ``report`` its
``--report`` HTML; ``units`` (check and plan pages, else null) says how the typed values were
read: ``{read_as: percent|fraction, how: declared|detected, note}``. The same form sent to
the page's own URL renders the result into the page (no script needed). What each page
computes is :mod:`falseclaims.web.pages`.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask, Response, jsonify, request
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from falseclaims.web.pages import (Outcome, check_outcome, check_report, percase_outcome,
                                   plan_outcome, render, result_html, table_outcome)

DEFAULT_UPLOAD_MB = 20
DEFAULT_TIME_LIMIT = 120.0  # seconds per percase / table run
PAGES = {"check": "Check a claim", "plan": "Plan a test set",
         "percase": "Per-case results", "table": "Results table"}
LIVE = ("check", "plan")  # recomputed as the user types; the others on submit


# ------------------------------------------------------------------ application
def _repeated_field(fields) -> Outcome | None:
    """A field given twice (a hand-written address) is refused, as the commands refuse a
    repeated option, rather than one of its values used unsaid."""
    for name in fields:
        if len(fields.getlist(name)) > 1:
            return Outcome().refuse(name, f"{name} given {len(fields.getlist(name))} times; "
                                    "expected it once")
    return None


def _fields() -> tuple[MultiDict, Outcome | None]:
    """The request's fields wherever the client put them: the address (the live pages'
    shareable links), a form body (``curl -d``, ``requests.post(data=...)``) or a JSON
    object (``requests.post(json=...)``); a field in two of them counts as given twice.
    Fields of a body were ignored on the check and plan pages: "--task required" for a
    request that gave it, or the address's value used beside a different one unsaid."""
    merged = MultiDict()
    for source in (request.args, request.form):
        for name, value in source.items(multi=True):
            merged.add(name, value)
    if (request.mimetype == "application/x-www-form-urlencoded" and request.content_length
            and not request.form):
        # werkzeug drops a whole form body that is not UTF-8 (a Windows-1252 'é' in any
        # field): said, instead of "--task, --n, --a, --b required" for fields that came
        return merged, Outcome().refuse("form", "the form body is not UTF-8 text (Windows-1252 "
                                        "or Latin-1?); send it as UTF-8, e.g. curl "
                                        "--data-urlencode")
    if not request.is_json:
        return merged, None
    try:
        # bytes: json finds UTF-8 with a byte-order mark (PowerShell, Notepad) and UTF-16/32
        body = json.loads(request.get_data() or b"null")
    except UnicodeDecodeError:
        return merged, Outcome().refuse("form", "the JSON body is not UTF-8 text (Windows-1252 "
                                        "or Latin-1?); send it as UTF-8")
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        return merged, Outcome().refuse("form", "a JSON body must be one object of field "
                                        'names and values, e.g. {"task": "cls", "n": 500}')
    for name, value in body.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            shown = json.dumps(value)
            return merged, Outcome().refuse(str(name), f"{name}: got {shown[:40]}; expected "
                                            "a number or a text")
        merged.add(str(name), str(value))
    return merged, None


def _compute(kind: str, config: str | None, time_limit: float) -> Outcome:
    fields, refused = _fields()
    if refused or (refused := _repeated_field(fields)):
        return refused
    if kind in LIVE:
        return (check_outcome if kind == "check" else plan_outcome)(fields, config)
    run = percase_outcome if kind == "percase" else table_outcome
    return run(fields, request.files, config, time_limit)


def create_app(config: str | None = None, max_upload_mb: float = DEFAULT_UPLOAD_MB,
               time_limit: float = DEFAULT_TIME_LIMIT) -> Flask:
    """The application; ``config`` as ``--config`` of the commands (resolved once here:
    the given file, else $FALSECLAIMS_CONFIG, else ./config/config.yaml, else the
    packaged defaults)."""
    from falseclaims.config import find_config, load_config

    found = find_config(config)
    config = str(Path(found).resolve()) if found else None
    load_config(config)  # a bad config is refused at start, not on the first request
    app = Flask("falseclaims.web", static_folder="static")
    app.config["MAX_CONTENT_LENGTH"] = int(max_upload_mb * 1024 * 1024)
    limits = {"upload_mb": max_upload_mb, "time_limit": time_limit, "config": config}

    def page(kind: str, outcome: Outcome | None = None, form=None) -> str:
        return render(f"web_{kind}.html.j2", kind=kind, pages=PAGES, limits=limits,
                      form=form or {}, outcome=outcome,
                      query=request.query_string.decode("utf-8", "replace"),
                      result=Markup(result_html(kind, outcome)) if outcome else "")

    def answer(kind: str, outcome: Outcome) -> Response:
        return jsonify(ok=not outcome.errors, errors=outcome.errors,
                       html=result_html(kind, outcome), envelope=outcome.envelope,
                       envelope_text=outcome.envelope_text, report=outcome.report,
                       units=outcome.units)

    def compute(kind: str) -> Outcome:
        return _compute(kind, config, time_limit)

    @app.route("/", defaults={"kind": "check"})
    @app.route("/<kind>", methods=["GET", "POST"])
    def show(kind):
        if kind not in PAGES:
            return Response("not found", status=404, mimetype="text/plain")
        fields = _fields()[0]
        if kind in LIVE:  # the form is in the address (GET): a result is shareable
            return page(kind, compute(kind) if fields else None, fields)
        post = request.method == "POST"
        return page(kind, compute(kind) if post else None, fields)

    @app.route("/api/<kind>", methods=["GET", "POST"])
    def api(kind):
        if kind not in PAGES:
            return Response("not found", status=404, mimetype="text/plain")
        return answer(kind, compute(kind))

    @app.get("/download/<kind>.json")
    def download_json(kind):
        if kind not in LIVE:
            return Response("not found", status=404)
        outcome = compute(kind)
        if outcome.errors:
            return Response("; ".join(outcome.errors.values()), status=400,
                            mimetype="text/plain")
        return _attachment(outcome.envelope_text, f"{kind}.json", "application/json")

    @app.get("/download/check.html")
    def download_check_report():
        fields, refused = _fields()
        outcome = refused or _repeated_field(fields) or check_report(fields, config)
        if outcome.errors:
            return Response("; ".join(outcome.errors.values()), status=400,
                            mimetype="text/plain")
        return _attachment(outcome.report, "check_report.html", "text/html")

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(_exc):
        message = (f"the upload is larger than {max_upload_mb:g} MB, the size limit of this "
                   "server (falseclaims serve --max-upload-mb)")
        if request.path.startswith("/api/"):
            return answer("percase", Outcome(errors={"form": message})), 413
        kind = request.path.strip("/")
        return page(kind if kind in PAGES else "check", Outcome(errors={"form": message})), 413

    app.after_request(_headers)
    return app


def _headers(resp: Response) -> Response:
    """Nothing cached; nothing loaded from elsewhere (the reports embed their figures)."""
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-src 'self' data: about:; connect-src 'self'")
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


def _request_log() -> None:
    """One line per request on the terminal's stderr, bound now: werkzeug would otherwise
    bind its handler to whatever ``sys.stderr`` is at the first request, which may be the
    capture of a command running at that moment (:func:`falseclaims.web.runner.run_inline`)."""
    import logging
    import sys

    log = logging.getLogger("werkzeug")
    if not log.handlers:
        log.addHandler(logging.StreamHandler(sys.__stderr__))
        log.setLevel(logging.INFO)


def _attachment(body: str, name: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def serve(port: int = 0, config: str | None = None, max_upload_mb: float = DEFAULT_UPLOAD_MB,
          time_limit: float = DEFAULT_TIME_LIMIT, announce=print) -> None:
    """Serve on 127.0.0.1 (``port`` 0: one the system chooses) until interrupted."""
    from werkzeug.serving import make_server

    app = create_app(config, max_upload_mb, time_limit)
    _request_log()
    server = make_server("127.0.0.1", port, app, threaded=True)
    announce(f"falseclaims: serving on http://127.0.0.1:{server.server_port}/ (this computer "
             "only; Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


__all__ = ["create_app", "serve"]
