"""`falseclaims serve`: the commands as a local web page (docs/web.md).

The page is a second front end of the commands, not a second implementation: every result
is the JSON envelope and HTML report of the command itself (:mod:`.runner` runs
``falseclaims check | plan | percase | table`` with ``--json``/``--report``), so the page
and the command line cannot disagree, and a refused input is refused in the command's
words. The server binds 127.0.0.1 only, fetches nothing, loads nothing from the network
(no CDN: the script and styles are package data) and keeps nothing after a request:
uploads live in a temporary directory removed when the answer is sent, downloads are
built in the browser from the answer.
"""

from falseclaims.web.app import create_app, serve

__all__ = ["create_app", "serve"]
