// Download: Python sends a file name and its bytes; the browser saves them as a download.
//
// The listener lives on the model (initialize), not on a view, so a file is saved once
// however many times the widget is shown.  The view only names the last file given.

function initialize({ model }) {
  const save = (msg, buffers) => {
    if (!msg || msg.type !== "download" || !buffers || !buffers.length) return;
    const blob = new Blob(buffers, { type: msg.mime || "application/octet-stream" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = msg.name;
    link.style.display = "none";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  model.on("msg:custom", save);
  return () => model.off("msg:custom", save);
}

function render({ model, el }) {
  el.classList.add("guyenne-download");
  const show = () => {
    const last = model.get("last");
    el.textContent = last ? `⬇ ${last}` : "";
  };
  model.on("change:last", show);
  show();
  return () => model.off("change:last", show);
}

export default { initialize, render };
