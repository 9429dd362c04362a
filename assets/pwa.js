// Turno as an installed app (app/api/pwa.py, docs/architecture.md "Installable app"). Registers the
// service worker, which only keeps an offline page, and offers 'Instalar o app' where the browser
// can install: the page's buttons marked data-install-app show once the browser says it can.
(() => {
  if ("serviceWorker" in navigator) {
    const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register);
  }
  let offer = null;
  const root = document.documentElement;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();  // our own button asks, when the person chooses to
    offer = event;
    root.dataset.installable = "true";
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    delete root.dataset.installable;
  });
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-install-app]") : null;
    if (!button || !offer) return;
    const asked = offer;
    offer = null;
    delete root.dataset.installable;
    asked.prompt();
  });
})();
