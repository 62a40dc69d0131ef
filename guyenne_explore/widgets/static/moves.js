// The legal-move list: moves grouped by castle, as chips.
//
// Hovering a chip previews it (trait "hovered"), a click selects it (trait "selected"),
// a double click asks Python to apply it. The list is rebuilt in one DOM update.

function render({ model, el }) {
  el.classList.add("guyenne-moves");
  const list = document.createElement("div");
  el.append(list);

  const draw = () => {
    const selected = model.get("selected");
    const frag = document.createDocumentFragment();
    for (const group of model.get("groups")) {
      const box = document.createElement("div");
      box.className = "guyenne-move-group";
      const title = document.createElement("div");
      title.className = "guyenne-move-group-title";
      title.textContent = `${group.label} (${group.moves.length})`;
      box.append(title);
      for (const [move, label] of group.moves) {
        const chip = document.createElement("button");
        chip.className = "guyenne-move" + (move === selected ? " guyenne-move-selected" : "");
        chip.dataset.move = move;
        chip.textContent = label;
        box.append(chip);
      }
      frag.append(box);
    }
    list.replaceChildren(frag);
  };
  const set = (name, value) => {
    if (model.get(name) !== value) {
      model.set(name, value);
      model.save_changes();
    }
  };

  list.addEventListener("mouseover", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) set("hovered", chip.dataset.move);
  });
  list.addEventListener("mouseleave", () => set("hovered", ""));
  list.addEventListener("click", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) set("selected", chip.dataset.move);
  });
  list.addEventListener("dblclick", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) model.send({ type: "apply", move: chip.dataset.move });
  });

  model.on("change:groups", draw);
  model.on("change:selected", draw);
  draw();
  return () => {
    model.off("change:groups", draw);
    model.off("change:selected", draw);
  };
}

export default { render };
