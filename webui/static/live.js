// Keeps the live page in step with the table: each server-sent snapshot with a new
// version makes the page fetch its changing part again (rendered by the server, in the
// reader's language) and swap it in. Seat buttons post without leaving the page.
"use strict";

(function () {
  const body = document.body;
  const connection = document.getElementById("connection");
  const banner = document.getElementById("offline-banner");
  const result = document.getElementById("press-result");
  let fetching = false;
  let again = false;
  let resultTimer = 0;

  function setConnection(live) {
    connection.dataset.state = live ? "live" : "offline";
    connection.textContent = live ? body.dataset.textLive : body.dataset.textOffline;
    connection.classList.toggle("offline", !live);
    // What the page says may no longer be true: say so big, grey out who is to play.
    body.classList.toggle("offline", !live);
    banner.hidden = live;
  }

  function shown() {
    return document.getElementById("live");
  }

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch(body.dataset.liveUrl, { cache: "no-store", credentials: "same-origin" });
        if (!response.ok) throw new Error("HTTP " + response.status);
        const holder = document.createElement("template");
        holder.innerHTML = (await response.text()).trim();
        const fresh = holder.content.getElementById("live");
        const old = shown();
        if (!fresh || !old) continue;
        const oldFlag = old.querySelector("#flag:not([hidden])");
        const newFlag = fresh.querySelector("#flag:not([hidden])");
        old.replaceWith(fresh);
        if (newFlag && (!oldFlag || oldFlag.dataset.index !== newFlag.dataset.index) && navigator.vibrate) {
          navigator.vibrate([200, 100, 200]);
        }
      } while (again);
    } finally {
      fetching = false;
    }
  }

  function showResult(text, ok) {
    result.textContent = text || "";
    result.hidden = !text;
    result.classList.toggle("refused", !ok);
    clearTimeout(resultTimer);
    resultTimer = setTimeout(function () { result.hidden = true; }, 4000);
  }

  const source = new EventSource(body.dataset.eventsUrl);
  source.onmessage = function (event) {
    setConnection(true);
    let version;
    try {
      version = String(JSON.parse(event.data).version);
    } catch (error) {
      return;
    }
    const live = shown();
    if (!live || live.dataset.version !== version) {
      refresh().catch(function () { setConnection(false); });
    }
  };
  // EventSource reconnects by itself; say so while it does.
  source.onerror = function () { setConnection(false); };

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches("form[data-seat-buttons]")) return;
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    fetch(form.action, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) { showResult(answer.ok ? answer.message : answer.error, answer.ok); })
      .catch(function () { showResult(body.dataset.textOffline, false); });
  });
})();
