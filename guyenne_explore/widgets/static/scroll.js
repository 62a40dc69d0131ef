// Scroll a part of the page into view on Python's request (a pile clicked on the table
// opens its row in the builder).  The request waits two frames: the tab that holds the row
// may have just been shown, and a hidden element can be neither scrolled to nor focused.

function initialize({ model }) {
  const go = (msg) => {
    if (!msg || msg.type !== "scroll" || typeof msg.selector !== "string") return;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const target = document.querySelector(msg.selector);
      if (!target) return;
      target.scrollIntoView({ block: "center", inline: "nearest" });
      const row = target.closest(".widget-hbox") || target;
      const input = row.querySelector("input");
      if (input) input.focus({ preventScroll: true });
    }));
  };
  model.on("msg:custom", go);
  return () => model.off("msg:custom", go);
}

function render({ el }) {
  el.classList.add("guyenne-scroll");
}

export default { initialize, render };
