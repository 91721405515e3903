// The admin pages: reload when the table changes (unless a form is being filled in,
// then say so), and name the "who starts" choices after the seat names being typed.
"use strict";

(function () {
  const body = document.body;
  const stale = document.getElementById("admin-stale");
  let touched = false;

  document.addEventListener("input", function (event) {
    touched = true;
    const input = event.target;
    if (input instanceof HTMLInputElement && input.classList.contains("seat-name")) {
      const option = document.querySelector('#first option[value="' + input.dataset.seat + '"]');
      if (option) option.textContent = input.value.trim() || input.placeholder;
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
