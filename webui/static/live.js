// Keeps the page in step with the table: each server-sent snapshot redraws it.
"use strict";

(function () {
  const body = document.body;
  const verdictsShown = Number(body.dataset.verdictsShown);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function seatNames(snapshot) {
    const names = new Map();
    for (const seat of snapshot.seats || []) {
      names.set(seat.seat, seat.name || "Seat " + (seat.seat + 1));
    }
    return names;
  }

  function drawSeats(snapshot, names) {
    const list = document.getElementById("seats");
    list.replaceChildren(...(snapshot.seats || []).map(function (seat) {
      const item = element("li", seat.to_play ? "seat to-play" : "seat");
      item.append(element("span", "name", names.get(seat.seat)), element("span", "score", seat.score || 0));
      if (seat.cards_in_hand !== undefined && seat.cards_in_hand !== null) {
        item.append(element("span", "hand", seat.cards_in_hand + " in hand"));
      }
      return item;
    }));
    const winners = document.getElementById("winners");
    winners.hidden = !(snapshot.winners && snapshot.winners.length);
    winners.textContent = "Winner: " + (snapshot.winners || []).map(function (seat) {
      return names.get(seat);
    }).join(", ");
  }

  function drawTable(snapshot) {
    document.getElementById("table").replaceChildren(...(snapshot.table || []).map(function (zone) {
      const item = element("li", "zone");
      item.append(
        element("span", "zone-name", zone.zone || ""),
        element("span", "top", zone.top || "empty"),
        element("span", "cards", (zone.cards || []).join(", "))
      );
      return item;
    }));
  }

  function drawVerdicts(snapshot, names) {
    const latest = verdictsShown > 0 ? (snapshot.verdicts || []).slice(-verdictsShown).reverse() : [];
    document.getElementById("verdicts").replaceChildren(...latest.map(function (verdict) {
      const ok = verdict.ok !== false;
      const item = element("li", ok ? "verdict ok" : "verdict flagged");
      item.append(
        element("span", "index", "#" + (verdict.index ?? "")),
        element("span", "who", names.get(verdict.seat) || ""),
        element("span", "message", verdict.message || ""),
        element("span", "rules", (verdict.rules || []).join(" "))
      );
      return item;
    }));
    const flagged = latest.length && latest[0].ok === false ? latest[0] : null;
    document.getElementById("flag").hidden = !flagged;
    if (flagged) {
      document.getElementById("flag-seat").textContent = names.get(flagged.seat) || "";
      document.getElementById("flag-message").textContent = flagged.message || "";
      document.getElementById("flag-rules").textContent = (flagged.rules || []).join(" ");
    }
  }

  function draw(snapshot) {
    const names = seatNames(snapshot);
    document.title = snapshot.title || "tableref";
    document.getElementById("title").textContent = snapshot.title || "tableref";
    const status = document.getElementById("status");
    status.className = "status status-" + (snapshot.status || "waiting");
    status.textContent = snapshot.message || "";
    drawSeats(snapshot, names);
    drawTable(snapshot);
    drawVerdicts(snapshot, names);
  }

  const connection = document.getElementById("connection");
  const source = new EventSource(body.dataset.eventsUrl);
  source.onmessage = function (event) {
    draw(JSON.parse(event.data));
    connection.textContent = "live";
    connection.classList.remove("offline");
  };
  // EventSource reconnects by itself; say so while it does.
  source.onerror = function () {
    connection.textContent = "reconnecting\u2026";
    connection.classList.add("offline");
  };
})();
