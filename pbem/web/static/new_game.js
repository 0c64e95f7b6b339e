// The new game's form: only the options of the game chosen are shown (all of them are there
// without this script, and the page reads only the chosen game's).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const chosen = document.getElementById("new-game-name");
  if (!chosen) return;
  const show = () => {
    const game = chosen.value.split(" ")[0];
    for (const options of document.querySelectorAll("details.options")) {
      options.hidden = options.dataset.game !== game;
    }
  };
  chosen.addEventListener("change", show);
  show();
});
