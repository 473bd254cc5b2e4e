// What the task benches run in the page, as text (tsx would wrap named functions in a
// helper the page lacks). `__arm(text, selector)` resolves `__done` with the page's clock
// when the element first contains `text`. It is armed once the page has drawn the previous
// change: a model's tool calls are seconds apart, so each one meets a page at rest.
export const OBSERVER = `(() => {
  window.__want = null;
  window.__arm = (text, selector) =>
    new Promise((armed) =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          window.__seen = 0;
          window.__arrived = 0;
          window.__first = 0;
          window.__want = { text, selector };
          window.__done = new Promise((resolve) => (window.__resolve = resolve));
          armed();
        }),
      ),
    );
  new MutationObserver(() => {
    const want = window.__want;
    if (want && !window.__seen && document.querySelector(want.selector)?.textContent.includes(want.text)) {
      window.__seen = performance.timeOrigin + performance.now();
      window.__resolve(window.__seen);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
