// Every form's refusal shows where the person is looking (docs/product/validation.md "Form errors").
// A form's messages are role="alert" elements inside it (components/forms.py field_error, a
// form-level callout such as the plan limit). On a long form at 375 px they could appear off screen
// and 'Publicar' seemed to do nothing. After a submit, the first message the server's answer brings
// into that form is scrolled into view and focused: a field's message focuses its field (the message
// is read with it), a form-level one is focused itself. Once per answer; nothing else is touched.
(() => {
  const WINDOW_MS = 15000;
  let sent = null; // { form, at }

  document.addEventListener(
    "submit",
    (event) => {
      if (event.target instanceof HTMLFormElement) sent = { form: event.target, at: Date.now() };
    },
    true,
  );

  const target = (alert) => {
    const field = alert.id.endsWith("-error") ? document.getElementById(alert.id.slice(0, -6)) : null;
    return field && field.isConnected && field.offsetParent !== null ? field : alert;
  };

  const show = (alert) => {
    sent = null;
    const where = target(alert);
    if (where === alert && !alert.hasAttribute("tabindex")) alert.setAttribute("tabindex", "-1");
    where.scrollIntoView({ block: "center", behavior: "auto" });
    where.focus({ preventScroll: true });
  };

  const firstAlert = (form, added) => {
    const alerts = [...form.querySelectorAll('[role="alert"]')].filter((alert) => added.has(alert));
    return alerts[0] || null; // document order: the message nearest the top of the form
  };

  new MutationObserver((records) => {
    if (!sent || Date.now() - sent.at > WINDOW_MS || !sent.form.isConnected) return;
    const added = new Set();
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches('[role="alert"]')) added.add(node);
        node.querySelectorAll('[role="alert"]').forEach((alert) => added.add(alert));
      }
    }
    if (!added.size) return;
    const alert = firstAlert(sent.form, added);
    if (alert) show(alert);
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
