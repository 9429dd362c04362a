// Forms sent before the page is hydrated (docs/security.md "Forms before the page's scripts").
// A page's first paint is real HTML, so a person can type and press 'Entrar' before React takes the
// page over. Until then a form has no handler, and the browser would send it itself: a GET to the
// page's own address with every field in the URL (a password in the history, the logs and the
// Referer). Until the page is hydrated a submit is held; once it is (components/hydration.py sets
// window.turnoReady), the held form is sent as the person asked, through the page's own handler.
(() => {
  let held = null;
  document.addEventListener(
    "submit",
    (event) => {
      if (window.turnoReady) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held = event.target instanceof HTMLFormElement ? event.target : null;
    },
    true,
  );
  window.turnoHydrated = () => {
    const form = held;
    held = null;
    if (form && form.isConnected) form.requestSubmit();
  };
})();
