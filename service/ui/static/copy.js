// "Copy" buttons: copy the text of the element named by data-copy (the job page's raw JSON). Where the clipboard API
// is not offered (a dashboard on plain HTTP and not on localhost), the text is selected for Ctrl-C instead.
(() => {
  "use strict";
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      const done = button.parentElement.querySelector(".copied");
      try {
        await navigator.clipboard.writeText(source.textContent);
        if (done) done.textContent = "Copied.";
      } catch (error) {
        const range = document.createRange();
        range.selectNodeContents(source);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        if (done) done.textContent = "Selected: press Ctrl-C (or ⌘-C) to copy.";
      }
      if (done) done.hidden = false;
    });
  }
})();
