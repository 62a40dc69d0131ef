// Upload: a button opening the visitor's file picker; the chosen file's bytes go to Python.
//
// A file over the limit is refused here, before anything is sent (the kernel checks again);
// only the file's name, size and bytes travel, never a path.  Messages written by Python
// (model "message", HTML made by the widget) show beside the button.

function render({ model, el }) {
  el.classList.add("guyenne-upload");
  const input = document.createElement("input");
  input.type = "file";
  input.hidden = true;
  const button = document.createElement("button");
  button.className = "jupyter-button widget-button guyenne-upload-button";
  const note = document.createElement("span");
  note.className = "guyenne-upload-message";
  el.append(button, input, note);

  const update = () => {
    button.textContent = model.get("description");
    input.accept = model.get("accept");
    note.innerHTML = model.get("message");
  };
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = ""; // the same file can be chosen again
    if (!file) return;
    if (file.size > model.get("max_bytes")) {
      model.send({ type: "refused", name: file.name, size: file.size });
      return;
    }
    const data = await file.arrayBuffer();
    model.send({ type: "file", name: file.name, size: file.size }, undefined, [data]);
  });

  model.on("change:description", update);
  model.on("change:accept", update);
  model.on("change:message", update);
  update();
  return () => {
    model.off("change:description", update);
    model.off("change:accept", update);
    model.off("change:message", update);
  };
}

export default { render };
