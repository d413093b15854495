"""`falseclaims serve` end to end in headless Chromium: the server started as a user starts
it, a browser typing into the check form, uploading a per-case file and pasting a LaTeX
table, and what the page shows compared with the command line (docs/web.md).

The browser is driven over the Chrome DevTools protocol (websocket-client). With
FALSECLAIMS_WEB_SHOTS set to a folder, the test also saves the screenshots of docs/web.md.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
websocket = pytest.importorskip("websocket", reason="websocket-client is not installed")

from falseclaims.cli import main  # noqa: E402
from falseclaims.percase.verdict import probability_text  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = Path(__file__).resolve().parents[1]
SEG = ROOT / "data" / "example" / "percase_segmentation_synthetic.csv"
LATEX = ROOT / "data" / "example" / "tables" / "latex_segmentation.tex"
SHOTS = os.environ.get("FALSECLAIMS_WEB_SHOTS")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")


class Browser:
    """One page of a headless Chromium, spoken to over the DevTools protocol."""

    def __init__(self, ws):
        self.ws = ws
        self.last = 0

    def call(self, method: str, **params):
        self.last += 1
        self.ws.send(json.dumps({"id": self.last, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.last:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def js(self, expression: str):
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                        awaitPromise=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"{expression}: {res['exceptionDetails']}")
        return res["result"].get("value")

    def wait(self, expression: str, timeout: float = 120):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"{expression} still false after {timeout} s")

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        self.wait(f"location.href.startsWith({url!r}) && document.readyState === 'complete'"
                  " && document.querySelector('form') !== null", 30)

    def type(self, selector: str, text: str) -> None:
        """Key the text into the field (input events as from a keyboard)."""
        self.js(f"document.querySelector({selector!r}).focus()")
        self.call("Input.insertText", text=text)

    def choose(self, selector: str, value: str) -> None:
        self.js(f"(e => {{ e.value = {value!r}; e.dispatchEvent(new Event('change', "
                f"{{bubbles: true}})); }})(document.querySelector({selector!r}))")

    def upload(self, selector: str, path: Path) -> None:
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        self.call("DOM.setFileInputFiles", nodeId=node, files=[str(path)])

    def text(self, selector: str) -> str:
        return self.js(f"document.querySelector({selector!r}).textContent")

    def shot(self, name: str) -> None:
        if SHOTS:
            import base64
            self.js("window.scrollTo(0, 0)")
            png = self.call("Page.captureScreenshot", format="png")["data"]
            Path(SHOTS, name).write_bytes(base64.b64decode(png))


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from falseclaims.cli import main; sys.exit(main())",
         "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        yield m.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium")
    proc = subprocess.Popen([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                             "--disable-dev-shm-usage", "--remote-debugging-port=0",
                             f"--user-data-dir={profile}", "--window-size=1280,1500",
                             "--hide-scrollbars", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 60
        while not (port_file.is_file() and port_file.read_text().count("\n") >= 1):
            assert time.monotonic() < end and proc.poll() is None, "chromium did not start"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            target = next(t for t in json.load(r) if t["type"] == "page")
        ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=180,
                                         suppress_origin=True)
        b = Browser(ws)
        b.call("Page.enable")
        yield b
        ws.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _cli(capsys, *argv) -> dict:
    capsys.readouterr()
    main([*argv, "--json"])
    return json.loads(capsys.readouterr().out)


def test_typing_a_claim_updates_the_result(server, browser, capsys):
    browser.open(server)
    browser.choose("#f-task", "classification")
    browser.type("#f-n", "500")
    browser.type("#f-a", "86%")
    browser.type("#f-b", "85%")
    browser.wait("document.body.dataset.state === 'done' && "
                 "document.querySelector('#f-b').value === '85%' && "
                 "location.search.includes('b=85')")
    cli = _cli(capsys, "check", "--task", "classification", "--n", "500", "--a", "0.86",
               "--b", "0.85")
    median = next(r for r in cli["result"]["results"] if r["assumption"] == "median")
    assert browser.text("#probability") == probability_text(median["probability"])
    assert browser.text("#verdict-label") == cli["result"]["verdict"]
    assert browser.js("document.querySelector('#dl-report').href").startswith(server)
    browser.shot("web_check.png")
    browser.type("#f-n", "x")  # "500x": refused next to the field, in the command's words
    browser.wait("document.body.dataset.state === 'refused'")
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["check", "--task=classification", "--n=500x", "--a=0.86", "--b=0.85"])
    err = capsys.readouterr().err.strip()
    assert err == f"falseclaims check: error: {browser.text('#err-n')}"
    assert browser.text("#result") == ""


def test_uploading_a_per_case_file(server, browser, capsys):
    browser.open(server + "percase")
    browser.choose("#f-task", "segmentation")
    browser.upload("#f-files", SEG)
    browser.js("document.querySelector('form button[type=submit]').click()")
    browser.wait("document.body.dataset.state === 'done'")
    cli = _cli(capsys, "percase", str(SEG), "--task", "segmentation")
    assert browser.text("#probability") == probability_text(cli["result"]["probability"])
    assert browser.text("#verdict-label") == cli["result"]["verdict"]
    assert browser.js("document.querySelector('iframe.report').srcdoc.length") > 50_000
    assert browser.js("document.querySelector('#dl-report').download") == "percase_report.html"
    browser.shot("web_percase.png")


def test_pasting_a_latex_table(server, browser, capsys):
    browser.open(server + "table")
    browser.type("#f-text", LATEX.read_text(encoding="utf-8"))
    browser.type("#f-n", "120")
    browser.js("document.querySelector('form button[type=submit]').click()")
    browser.wait("document.body.dataset.state === 'done'")
    cli = _cli(capsys, "table", str(LATEX), "--n", "120")
    winners = browser.js("[...document.querySelectorAll('.winner')].map(e => e.textContent)")
    assert winners == [m["winner"] for m in cli["result"]["tables"][0]["metrics"]]
    browser.shot("web_table.png")


def test_plan_grid(server, browser):
    browser.open(server + "plan?task=segmentation&delta=0.01&level=0.85")
    assert browser.js("document.querySelectorAll('#grid td').length") > 20
    browser.shot("web_plan.png")
