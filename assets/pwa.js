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

// 'Ativar notificações neste aparelho' (services/push.py): asks the browser's permission, subscribes
// with the server's VAPID key and hands the subscription to the server, which keeps it for this
// session. Each call answers a plain object, so a Reflex event can take it as is.
window.turnoPush = (() => {
  const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  const decode = (text) => {
    const raw = atob((text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };
  const sameKey = (subscription, key) => {
    const used = subscription.options && subscription.options.applicationServerKey;
    if (!used) return true;
    const wanted = decode(key);
    const have = new Uint8Array(used);
    return have.length === wanted.length && have.every((byte, i) => byte === wanted[i]);
  };
  const registration = async () => {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return navigator.serviceWorker.ready;
  };
  return {
    async enable(key) {
      if (!supported()) return { error: "unsupported" };
      if ((await Notification.requestPermission()) !== "granted") return { error: "denied" };
      try {
        const manager = (await registration()).pushManager;
        let subscription = await manager.getSubscription();
        if (subscription && !sameKey(subscription, key)) {
          await subscription.unsubscribe();
          subscription = null;
        }
        subscription =
          subscription || (await manager.subscribe({ userVisibleOnly: true, applicationServerKey: decode(key) }));
        return { subscription: subscription.toJSON() };
      } catch (error) {
        return { error: "failed" };
      }
    },
    async disable() {
      if (!supported()) return { done: true };
      try {
        const subscription = await (await registration()).pushManager.getSubscription();
        if (subscription) await subscription.unsubscribe();
      } catch (error) {
        /* the server has already forgotten it */
      }
      return { done: true };
    },
  };
})();
