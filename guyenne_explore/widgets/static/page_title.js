// The browser tab's title, the page's heading (the notebook's first h1) and the page's language, as the explorer shows
// them (they follow a language switch: the heading stayed "Guyenne explorer" on French pages).
//
// Only in the app (Voila's page, whose body says data-voila): the page is the explorer's alone there. In
// JupyterLab the tab names the notebook and the page is Lab's, left as it is.
//
// Also only in the app: when the page's kernel stops (killed, restarted without the explorer's widgets, or its
// connection lost for good), a banner at the top says so in the words the model holds (the language shown) and
// to reload, instead of a page whose controls silently do nothing.  JupyterLab shows its own kernel status.

//: the kernel's states after which it no longer holds the explorer (a restart starts a kernel without it)
const STOPPED = new Set(["dead", "restarting", "autorestarting", "terminating"]);

function showStopped(words) {
  if (document.querySelector(".guyenne-stopped")) return;
  const banner = document.createElement("div");
  banner.className = "guyenne-stopped";
  banner.setAttribute("role", "alert");
  banner.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:10000;padding:10px 16px;" +
    "background:#9b1c1c;color:#fff;font:600 15px/1.4 sans-serif;text-align:center";
  banner.textContent = words;
  document.body.prepend(banner);
}

function initialize({ model }) {
  const kernel = model.widget_manager && model.widget_manager.kernel;
  if (!kernel || !document.body.dataset.voila) return;
  const check = () => {
    if (STOPPED.has(kernel.status) || kernel.connectionStatus === "disconnected") showStopped(model.get("stopped"));
  };
  kernel.statusChanged.connect(check);
  kernel.connectionStatusChanged.connect(check);
  check();
  return () => {
    kernel.statusChanged.disconnect(check);
    kernel.connectionStatusChanged.disconnect(check);
  };
}

function render({ model }) {
  const show = () => {
    if (!document.body.dataset.voila) return;
    document.title = model.get("title");
    document.documentElement.lang = model.get("lang");
    const heading = document.querySelector("h1");
    if (heading) heading.textContent = model.get("title");
  };
  model.on("change:title", show);
  model.on("change:lang", show);
  show();
  return () => {
    model.off("change:title", show);
    model.off("change:lang", show);
  };
}

export default { initialize, render };
