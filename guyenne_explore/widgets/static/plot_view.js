// One plotly figure, drawn from its JSON; plotly.js is loaded once per page.
//
// The first view that needs plotly.js asks Python for it ("plotly-js?"); the bundle comes
// back once as a binary buffer, runs as a <script> from a blob URL and stays in window, so
// every later view, of any panel or notebook in this page, reuses it. After each drawing
// the view reports the figure's revision ("drawn"): the panels say "Done" only then.

const LOADING = "__guyennePlotlyLoading";  // the shared promise of window.Plotly
const LOADS = "__guyennePlotlyLoads";      // how many times the bundle ran (tests read it)

function runBundle(buffer) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([buffer], { type: "text/javascript" }));
    const script = document.createElement("script");
    // plotly.min.js is a UMD bundle: with an AMD loader on the page (classic notebook,
    // some Voilà templates) it would register there instead of defining window.Plotly
    const define = window.define;
    window.define = undefined;
    const done = () => {
      window.define = define;
      URL.revokeObjectURL(url);
      script.remove();
    };
    script.onload = () => {
      done();
      window[LOADS] = (window[LOADS] || 0) + 1;
      window.Plotly ? resolve(window.Plotly) : reject(new Error("plotly.js did not define Plotly"));
    };
    script.onerror = () => {
      done();
      reject(new Error("plotly.js could not be loaded"));
    };
    script.src = url;
    document.head.append(script);
  });
}

function loadPlotly(model) {
  if (!window[LOADING]) {
    window[LOADING] = new Promise((resolve, reject) => {
      const onMessage = (msg, buffers) => {
        if (!msg || msg.type !== "plotly-js") return;
        model.off("msg:custom", onMessage);
        runBundle(buffers[0].buffer ? buffers[0].buffer : buffers[0]).then(resolve, reject);
      };
      model.on("msg:custom", onMessage);
      model.send({ type: "plotly-js?" });
    });
    // a failed load (a closed kernel...) is retried by the next view that needs it
    window[LOADING].catch(() => { window[LOADING] = undefined; });
  }
  return window[LOADING];
}

const CONFIG = { responsive: true, displaylogo: false };

function render({ model, el }) {
  el.classList.add("guyenne-plot");
  const box = document.createElement("div");
  box.className = "guyenne-plot-figure";
  el.append(box);
  let chain = Promise.resolve();
  let drawnWidth = 0;
  let waiting = false;  // a figure came while the view was hidden: drawn once it has a width

  const draw = () => {
    const fig = model.get("figure");
    const revision = model.get("revision");
    if (!fig || !fig.data) {
      // nothing to draw yet: fetch plotly.js while the page is idle, so the first figures are instant (unless the
      // server's pages skip their warm-up: then the first figure fetches it)
      if (model.get("prefetch")) {
        const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1500));
        idle(() => loadPlotly(model).catch(() => {}), { timeout: 4000 });
      }
      return;
    }
    // a hidden view (another tab, not yet shown) would be drawn at plotly's default 700 px
    waiting = box.clientWidth === 0;
    if (waiting) return;
    chain = chain
      .then(() => loadPlotly(model))
      .then((Plotly) => Plotly.react(box, fig.data, fig.layout || {}, CONFIG))
      .then(() => {
        drawnWidth = box.clientWidth;
        el.dataset.revision = String(revision);
        model.send({ type: "drawn", revision });
      })
      .catch((err) => {
        box.textContent = `The figure could not be drawn: ${err && err.message ? err.message : err}`;
      });
  };

  // a figure drawn while its tab was hidden, or a window resized: fit the figure to its box.  A tab shown again
  // is fitted even at the width it had: a window resized while it was hidden had plotly's own (responsive)
  // resize measure the hidden box and leave the figure 0 px high
  let seenWidth = 0;  // the box's width when last observed: 0 while its tab is hidden
  const observer = new ResizeObserver(() => {
    const width = box.clientWidth;
    const reappeared = seenWidth === 0 && width > 0;
    seenWidth = width;
    if (waiting && width > 0) {
      draw();
    } else if (window.Plotly && box.data && width > 0 && (reappeared || width !== drawnWidth)) {
      drawnWidth = width;
      window.Plotly.Plots.resize(box);
    }
  });
  observer.observe(el);
  model.on("change:revision", draw);
  model.send({ type: "view" });
  draw();
  return () => {
    observer.disconnect();
    model.off("change:revision", draw);
    if (window.Plotly && box.data) window.Plotly.purge(box);
  };
}

export default { render };
