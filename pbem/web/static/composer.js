// The move composer: the moves of `pbem moves --json`'s forms as buttons, field by field, until
// a whole move's text is in the box the Play button sends. Without this script the box alone
// still plays whatever is typed into it.
//
// The picture marks what a move may name (an estate's square, a city, a region) with the same
// word in a data-choice attribute: while a field's values include such words, those places are
// marked and a click on one chooses its value as its button does. On a narrow screen the picture
// zooms to the places marked while a field chooses on it, so each is big enough for a finger.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const data = document.getElementById("forms");
  const box = document.getElementById("choices");
  const text = document.getElementById("move-text");
  if (!data || !box || !text) return;
  const forms = JSON.parse(data.textContent);
  const picture = document.querySelector(".picture svg");
  const FIRST_AT_ONCE = 12;
  const shown = document.getElementById("preview");
  let asked = 0;  // the latest preview asked for: an earlier answer arriving late is dropped

  // the game after a whole move, as the page's preview draws it: nothing is signed until Play
  async function preview(move) {
    if (!shown) return;
    const at = ++asked;
    const query = new URLSearchParams({ seat: text.form.elements.seat.value, text: move });
    const answer = await fetch(text.form.getAttribute("action").replace(/\/play$/, "/preview?") + query);
    const fragment = await answer.text();
    if (at !== asked) return;
    shown.innerHTML = fragment;
    shown.hidden = false;
  }

  function unshow() {
    asked += 1;
    if (shown) shown.hidden = true;
  }

  text.addEventListener("change", () => (text.value.trim() ? preview(text.value) : unshow()));
  let onBoard = new Map();  // data-choice word -> what choosing it does, for the field asked now

  function add(parent, tag, words, className) {
    const element = document.createElement(tag);
    element.textContent = words;
    if (className) element.className = className;
    parent.appendChild(element);
    return element;
  }

  // the form as a player reads it: the values chosen in their places, the fields still to choose
  // in capitals, an optional part in square brackets until it is chosen or left out
  function written(form, chosen) {
    const given = new Map(form.fields.slice(0, chosen.length).map((name, at) => [name, chosen[at]]));
    const fill = (part) => part.replace(/\{(\w+)\}/g, (_, name) => given.get(name) ?? name.toUpperCase());
    const said = form.form.split(/\[([^\]]*)\]/).map((part, at) => {
      if (at % 2 === 0) return fill(part);
      const names = [...part.matchAll(/\{(\w+)\}/g)].map((found) => found[1]);
      if (names.some((name) => given.get(name))) return fill(part);
      return names.some((name) => given.has(name)) ? "" : " [" + fill(part).trim() + "]";
    });
    return said.join("").replace(/\s+/g, " ").trim();
  }

  function offer(choices) {
    onBoard = choices;
    if (!picture) return;
    for (const place of picture.querySelectorAll("[data-choice]")) {
      place.classList.toggle("choosable", choices.has(place.getAttribute("data-choice")));
    }
    zoom();
  }

  // A phone draws the picture a few hundred pixels wide, an estate's square a dozen pixels across:
  // too small for a finger. While places are marked on a narrow page, the picture shows only the
  // part around them (its viewBox), and whole again once none is; a button shows it whole anyway.
  const narrow = window.matchMedia("(max-width: 699px)");
  const whole = picture ? picture.getAttribute("viewBox") : null;  // a picture without one is not zoomed
  let wholeAsked = false;  // the player asked for the whole picture while places are marked
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "whole-picture";
  toggle.hidden = true;
  toggle.addEventListener("click", () => {
    wholeAsked = !wholeAsked;
    zoom();
  });
  if (picture && whole) {
    picture.before(toggle);
    narrow.addEventListener("change", zoom);  // a phone turned on its side
  }

  // the square part of the picture, in its own units, around the places marked, with a margin:
  // a square keeps the picture's height on the page sane whatever the places' shape; none where
  // it would not fit inside the picture, which is then shown whole
  function around(places) {
    const [left, top, width, height] = whole.split(/[\s,]+/).map(Number);
    const xs = [];
    const ys = [];
    const screen = picture.getScreenCTM();
    if (!screen) return null;  // not drawn (hidden): nothing to zoom
    const toPicture = screen.inverse();
    for (const place of places) {
      const drawn = place.getScreenCTM();
      if (!drawn) continue;
      // the place's box, through its own transforms and the picture's, in the picture's units
      const toHere = toPicture.multiply(drawn);
      const box = place.getBBox();
      for (const [x, y] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const corner = new DOMPoint(box.x + x * box.width, box.y + y * box.height).matrixTransform(toHere);
        xs.push(corner.x);
        ys.push(corner.y);
      }
    }
    if (!xs.length) return null;
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // at least a quarter of the picture's width: a lone place keeps some of what lies round it
    const side = Math.max(1.25 * Math.max(x1 - x0, y1 - y0), width / 4);
    if (side >= Math.min(width, height)) return null;
    // centred on the places, moved inside the picture where it would stick out
    const x = Math.min(Math.max((x0 + x1 - side) / 2, left), left + width - side);
    const y = Math.min(Math.max((y0 + y1 - side) / 2, top), top + height - side);
    return [x, y, side, side].join(" ");
  }

  function zoom() {
    if (!picture || !whole) return;
    const marked = picture.querySelectorAll(".choosable");
    const part = marked.length && narrow.matches ? around(marked) : null;
    toggle.hidden = !part;
    toggle.textContent = wholeAsked ? "zoom to the marked places" : "whole picture";
    picture.setAttribute("viewBox", part && !wholeAsked ? part : whole);
  }

  if (picture) {
    // one listener for the whole picture: the innermost marked place under the pointer decides
    picture.addEventListener("click", (event) => {
      for (let place = event.target; place && place !== picture; place = place.parentNode) {
        const word = place.getAttribute && place.getAttribute("data-choice");
        if (word !== null && onBoard.has(word)) {
          onBoard.get(word)();
          return;
        }
      }
    });
  }

  // `all`: every form, those open at any time (a gift) too; else the one move asked now, if one
  function start(all) {
    box.replaceChildren();
    unshow();
    offer(new Map());
    const asked = forms.filter((form) => !form.free);
    if (asked.length === 1 && !(all && forms.length > 1)) return choose(asked[0], asked[0].choices, 0, []);
    add(box, "div", "Choose a move:", "field");
    // a place on the picture that some form's first field names chooses it there too (the city
    // to build in); where two forms name the same place, the first of them
    const onPicture = new Map();
    for (const form of forms) {
      // a form's first word among a few is chosen here at once (the building to build, the lot
      // to buy): one click less than the form, then its word
      const row = add(box, "div", "", "form");
      const first = form.fields.length ? Object.keys(form.choices) : [];
      if (first.length < 2 || first.length > FIRST_AT_ONCE) {
        add(row, "button", written(form, [])).addEventListener("click", () => choose(form, form.choices, 0, []));
        continue;
      }
      add(row, "span", written(form, []) + ": ", "chosen");
      for (const value of first) {
        const button = add(row, "button", value === "" ? "(leave out)" : value);
        button.type = "button";
        button.dataset.value = value;
        const pick = () => choose(form, form.choices[value], 1, [value]);
        button.addEventListener("click", pick);
        // cards to play are no place, whatever a card is called: the form says which fields are
        if (value !== "" && form.places.includes(form.fields[0]) && !onPicture.has(value)) onPicture.set(value, pick);
      }
    }
    offer(onPicture);
  }

  // `node` holds the values of field `depth` of `form`; under the last field's value, the text
  function choose(form, node, depth, chosen) {
    // a field with one value is no choice: it is taken (an empty part left out, a form without
    // fields, a building that stands only one way round)
    while (typeof node !== "string" && Object.keys(node).length === 1) {
      const [value] = Object.keys(node);
      chosen = [...chosen, value];
      node = node[value];
      depth += 1;
    }
    box.replaceChildren();
    if (forms.length > 1 || chosen.length) {
      add(box, "button", "start again").addEventListener("click", () => start(true));
    }
    add(box, "div", written(form, chosen), "chosen");
    if (typeof node === "string") {
      offer(new Map());
      text.value = node;
      add(box, "div", "Play will make the move: " + node, "chosen");
      preview(node);
      return;
    }
    const field = form.fields[depth] || "next word";
    const prompt = add(box, "div", "Choose the " + field + ":", "field");
    const choices = new Map();
    // a list's values (sets of cards) read best in their numbers' order: building:8 before building:19
    const values = Object.keys(node);
    if (form.lists.includes(field)) values.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    for (const value of values) {
      const pick = () => choose(form, node[value], depth + 1, [...chosen, value]);
      const button = add(box, "button", value === "" ? "(leave out)" : value);
      button.type = "button";
      button.dataset.value = value;
      button.addEventListener("click", pick);
      choices.set(value, pick);
    }
    offer(form.places.includes(field) ? choices : new Map());
    const marked = picture ? picture.querySelectorAll(".choosable").length : 0;
    if (marked) prompt.textContent += " (or click a marked " + field + " on the picture)";
  }

  start(false);
});
