// falseclaims serve: send the form, show the command's answer, offer its downloads.
// Results are HTML the server rendered with autoescape; messages go in as text.
(function () {
  "use strict";
  const form = document.querySelector("form[data-kind]");
  if (!form) return;
  const kind = form.dataset.kind;
  const live = form.dataset.live === "true";
  const result = document.getElementById("result");
  const status = document.getElementById("status");
  const downloads = document.getElementById("downloads");
  let timer = null;
  let sequence = 0;

  function query() {
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (typeof v === "string" && v.trim() !== "") p.append(k, v.trim());
    }
    return p.toString();
  }

  function showErrors(errors) {
    document.querySelectorAll(".error[id^='err-']").forEach((e) => { e.textContent = ""; });
    for (const [field, message] of Object.entries(errors || {})) {
      const place = document.getElementById("err-" + field) || document.getElementById("err-form");
      place.textContent = message;
    }
  }

  function link(id, text, href, name) {
    const a = document.createElement("a");
    a.id = id; a.textContent = text; a.href = href;
    if (name) a.download = name;
    downloads.appendChild(a);
    downloads.appendChild(document.createTextNode(" "));
  }

  function blob(text, type) {
    return URL.createObjectURL(new Blob([text], { type: type }));
  }

  function offerDownloads(answer, q) {
    downloads.replaceChildren();
    if (!answer.ok) return;
    if (live) {
      link("dl-json", "JSON", "/download/" + kind + ".json?" + q);
      if (kind === "check") link("dl-report", "HTML report", "/download/check.html?" + q);
    } else {
      link("dl-json", "JSON", blob(answer.envelope_text, "application/json"), kind + ".json");
      if (answer.report) {
        link("dl-report", "HTML report", blob(answer.report, "text/html"), kind + "_report.html");
      }
    }
  }

  async function update() {
    const mine = ++sequence;
    const q = query();
    status.textContent = "computing…";
    document.body.dataset.state = "busy";
    let answer;
    try {
      const response = live
        ? await fetch("/api/" + kind + "?" + q, { cache: "no-store" })
        : await fetch("/api/" + kind, { method: "POST", body: new FormData(form) });
      if (!(response.headers.get("Content-Type") || "").startsWith("application/json")) {
        if (mine !== sequence) return;
        status.textContent = "the server failed on this input (HTTP " + response.status +
          "); its terminal shows why";
        document.body.dataset.state = "failed";
        return;
      }
      answer = await response.json();
    } catch (e) {
      if (mine !== sequence) return;
      status.textContent = "no answer from the server (is falseclaims serve still running?)";
      document.body.dataset.state = "failed";
      return;
    }
    if (mine !== sequence) return; // a newer request is under way
    showErrors(answer.errors);
    result.innerHTML = answer.html;
    offerDownloads(answer, q);
    status.textContent = answer.ok ? "" : "not computed: see the message above";
    if (live) history.replaceState(null, "", "?" + q);
    document.body.dataset.state = answer.ok ? "done" : "refused";
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); update(); });
  if (live) {
    const soon = () => { clearTimeout(timer); timer = setTimeout(update, 250); };
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
  }
})();
