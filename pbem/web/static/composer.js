// The move composer: the moves of `pbem moves --json`'s forms as buttons, field by field, until
// a whole move's text is in the box the Play button sends. Without this script the box alone
// still plays whatever is typed into it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const data = document.getElementById("forms");
  const box = document.getElementById("choices");
  const text = document.getElementById("move-text");
  if (!data || !box || !text) return;
  const forms = JSON.parse(data.textContent);

  function add(parent, tag, words, className) {
    const element = document.createElement(tag);
    element.textContent = words;
    if (className) element.className = className;
    parent.appendChild(element);
    return element;
  }

  function start() {
    box.replaceChildren();
    if (forms.length === 1) return choose(forms[0], forms[0].choices, 0, []);
    add(box, "div", "Choose a move:", "field");
    for (const form of forms) {
      add(box, "button", form.form).addEventListener("click", () => choose(form, form.choices, 0, []));
    }
  }

  // `node` holds the values of field `depth` of `form`; under the last field's value, the text
  function choose(form, node, depth, chosen) {
    while (typeof node !== "string" && Object.keys(node).length === 1 && "" in node) {
      node = node[""]; depth += 1;  // a form without fields, or an empty part left out
    }
    box.replaceChildren();
    if (forms.length > 1 || chosen.length) add(box, "button", "start again").addEventListener("click", start);
    add(box, "div", form.form + (chosen.length ? ": " + chosen.join(" ") : ""), "chosen");
    if (typeof node === "string") {
      text.value = node;
      add(box, "div", "Play will make the move: " + node, "chosen");
      return;
    }
    add(box, "div", "Choose the " + (form.fields[depth] || "next word") + ":", "field");
    for (const value of Object.keys(node)) {
      const button = add(box, "button", value === "" ? "(leave out)" : value);
      button.type = "button";
      button.addEventListener("click", () => choose(form, node[value], depth + 1, [...chosen, value]));
    }
  }

  start();
});
