// The legal-move list: moves grouped by castle, as chips.
//
// Hovering a chip previews it, a click selects it, a double click asks Python to apply it: each is a message
// naming the list it was made on (trait "revision", one more for each list Python shows), so that Python ignores
// one that reaches it after the list changed (a hover sent as the chips under the pointer are drawn again, after
// a double click, would otherwise preview the old list's move on the next position). Python alone sets
// "selected"; the list is rebuilt in one DOM update when a new one comes, and a selection only marks its chip
// (rebuilding the chips under the pointer makes the browser report a new hover).

function render({ model, el }) {
  el.classList.add("guyenne-moves");
  const list = document.createElement("div");
  el.append(list);

  const mark = () => {
    const selected = model.get("selected");
    for (const chip of list.querySelectorAll(".guyenne-move")) {
      chip.classList.toggle("guyenne-move-selected", chip.dataset.move === selected);
    }
  };
  const draw = () => {
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
        chip.className = "guyenne-move";
        chip.dataset.move = move;
        chip.textContent = label;
        box.append(chip);
      }
      frag.append(box);
    }
    list.replaceChildren(frag);
    mark();
  };
  const pick = (type, move) => model.send({ type, move, list: model.get("revision") });
  let hovered = "";  // the last hover sent for the list shown (a new list starts with none)
  const hover = (move) => {
    if (move !== hovered) {
      hovered = move;
      pick("hover", move);
    }
  };
  const newList = () => {
    hovered = "";
  };

  list.addEventListener("mouseover", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) hover(chip.dataset.move);
  });
  list.addEventListener("mouseleave", () => hover(""));
  list.addEventListener("click", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) pick("select", chip.dataset.move);
  });
  list.addEventListener("dblclick", (e) => {
    const chip = e.target.closest(".guyenne-move");
    if (chip) pick("apply", chip.dataset.move);
  });

  model.on("change:revision", newList);
  model.on("change:groups", draw);
  model.on("change:selected", mark);
  draw();
  return () => {
    model.off("change:revision", newList);
    model.off("change:groups", draw);
    model.off("change:selected", mark);
  };
}

export default { render };
