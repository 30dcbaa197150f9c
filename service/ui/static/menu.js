// On a narrow screen (a phone at 390 px) the top bar folds its links and the sign-out into a menu behind one button.
// Without this script the top bar stays unfolded (it wraps), so every page is usable either way.
(() => {
  "use strict";
  const header = document.querySelector("header");
  const button = header && header.querySelector("button.menu-toggle");
  if (!button) return;
  header.classList.add("foldable");
  button.addEventListener("click", () => {
    const open = header.classList.toggle("open");
    button.setAttribute("aria-expanded", String(open));
  });
})();
