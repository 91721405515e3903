// The admin pages: reload when the table changes (unless a form is being filled in,
// then say so), and name the "who starts" choices after the seat names being typed.
"use strict";

(function () {
  const body = document.body;
  const stale = document.getElementById("admin-stale");
  let touched = false;

  // The new-match form: the seats beyond the fewest a game needs show one at a time, as
  // names are typed (without this script they all show); "who starts" offers those seats.
  const seats = Array.from(document.querySelectorAll("#seat-names .seat-name"));
  function showSeatsInUse() {
    let spare = false;
    seats.forEach(function (input) {
      const empty = !input.value.trim();
      const shown = !input.classList.contains("extra") || !empty || !spare;
      if (input.classList.contains("extra") && empty) spare = true;
      input.hidden = !shown;
      const option = document.querySelector('#first option[data-seat="' + input.dataset.seat + '"]');
      if (option) option.hidden = input.classList.contains("extra") && empty;
    });
  }
  showSeatsInUse();

  document.addEventListener("input", function (event) {
    touched = true;
    const input = event.target;
    if (input instanceof HTMLInputElement && input.classList.contains("seat-name")) {
      const option = document.querySelector('#first option[value="' + input.dataset.seat + '"]');
      if (option) option.textContent = input.value.trim() || input.placeholder;
      showSeatsInUse();
    }
  });

  if (body.dataset.eventsUrl && body.dataset.version !== undefined) {
    const source = new EventSource(body.dataset.eventsUrl);
    // A form being sent changes the table too: its answer is the next page, not a reload.
    document.addEventListener("submit", function () { source.close(); });
    window.addEventListener("pagehide", function () { source.close(); });
    source.onmessage = function (event) {
      let version;
      try {
        version = String(JSON.parse(event.data).version);
      } catch (error) {
        return;
      }
      if (version === body.dataset.version) return;
      if (!touched) {
        source.close();
        window.location.reload();
      } else if (stale) {
        stale.hidden = false;
      }
    };
  }
})();
