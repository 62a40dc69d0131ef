// The live table: draws the SVG made by the render layer and reports clicks on castles and stacks.
//
// Python owns the position and the drawing; this view only swaps the SVG in one DOM update
// (no blank frame between two diagrams) and turns clicks into small messages.

function castleIndex(node) {
  const castle = node.closest("g.castle[data-castle]");
  return castle ? Number(castle.dataset.castle) : null;
}

function stackOf(node) {
  // hands, decks, discards, removed and placed cards: class "stack" with data-side and data-zone
  const stack = node.closest("g.stack[data-side][data-zone]");
  if (!stack) return null;
  return { side: stack.dataset.side, zone: stack.dataset.zone, member: Number(stack.dataset.member ?? 0) };
}

function render({ model, el }) {
  el.classList.add("guyenne-table");
  const board = document.createElement("div");
  board.className = "guyenne-table-board";
  const note = document.createElement("div");
  note.className = "guyenne-table-note";
  el.append(board, note);

  const draw = () => {
    // parse off-document, then replace the old picture in one step: no flicker
    const tpl = document.createElement("template");
    tpl.innerHTML = model.get("svg");
    const titles = model.get("castle_titles") || [];
    for (const castle of tpl.content.querySelectorAll("g.castle[data-castle]")) {
      const text = titles[Number(castle.dataset.castle)];
      if (!text) continue;
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.setAttribute("class", "guyenne-castle-title");
      title.textContent = text;  // castles in words count from 1 (the rulebook); data-castle keeps the index
      castle.prepend(title);
    }
    board.replaceChildren(tpl.content);
    board.dataset.notation = model.get("notation");
  };
  const status = () => {
    const text = model.get("status");
    note.textContent = text;
    // a position being built, not valid yet, is drawn as it stands with its problems under it: not dimmed
    el.classList.toggle("guyenne-table-draft", model.get("draft"));
    el.classList.toggle("guyenne-table-stale", text !== "" && !model.get("draft"));
  };

  board.addEventListener("click", (event) => {
    const castle = castleIndex(event.target);
    if (castle !== null) {
      model.send({ type: "castle", index: castle });
      return;
    }
    const stack = stackOf(event.target);
    if (stack) model.send({ type: "stack", ...stack });
  });

  model.on("change:svg", draw);
  model.on("change:notation", draw);
  model.on("change:castle_titles", draw);
  model.on("change:status", status);
  model.on("change:draft", status);
  draw();
  status();
  return () => {
    model.off("change:svg", draw);
    model.off("change:notation", draw);
    model.off("change:castle_titles", draw);
    model.off("change:status", status);
    model.off("change:draft", status);
  };
}

export default { render };
