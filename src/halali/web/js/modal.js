// A modal dialog as WAI-ARIA's practices describe it: while it is open the rest of the page is inert
// (no click, key or screen reader's cursor reaches it), Tab and Shift+Tab go round inside the dialog,
// Escape closes it, and closing gives the focus back where it was: the square of the board that made
// the last move, the button that opened it.

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
// Kept out of the inert: notices that speak while the dialog is open and take no input.
const STAYS_LIVE = ".toast, .ready-banner, .hint";

export class Modal {
  /**
   * ``overlay`` is the hidden backdrop holding the dialog; ``fallback()`` is where the focus goes on
   * closing when the element that had it is gone or hidden (the board's square with the tab stop).
   */
  constructor(overlay, { fallback = () => null, onClose = () => {} } = {}) {
    this.overlay = overlay;
    this.dialog = overlay.querySelector('[role="dialog"]') || overlay;
    this.fallback = fallback;
    this.onClose = onClose;
    this.returnTo = null;
    this.inerted = [];
    overlay.addEventListener("keydown", (e) => this.keydown(e));
  }

  get open() {
    return !this.overlay.hidden;
  }

  /** Show the dialog with the focus on ``first`` (by default its first control). */
  show(first = null) {
    if (!this.open) {
      const active = document.activeElement;
      this.returnTo = active && active !== document.body ? active : null;
      this.overlay.hidden = false;
      for (const node of document.body.children) {
        if (node === this.overlay || node.contains(this.overlay) || node.inert || node.matches(STAYS_LIVE)
          || node.tagName === "SCRIPT") continue;
        node.inert = true;
        this.inerted.push(node);
      }
    }
    const target = first || this.controls()[0] || this.dialog;
    if (!this.dialog.contains(document.activeElement)) target.focus();
  }

  hide() {
    if (!this.open) return;
    this.overlay.hidden = true;
    for (const node of this.inerted) node.inert = false;
    this.inerted = [];
    const back = usable(this.returnTo) ? this.returnTo : this.fallback();
    this.returnTo = null;
    if (back) back.focus();
    this.onClose();
  }

  controls() {
    return [...this.dialog.querySelectorAll(FOCUSABLE)].filter((e) => !e.disabled && e.getClientRects().length);
  }

  keydown(e) {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.hide();
      return;
    }
    if (e.key !== "Tab") return;
    const list = this.controls();
    if (!list.length) return e.preventDefault();
    const first = list[0];
    const last = list[list.length - 1];
    const here = document.activeElement;
    if (e.shiftKey && (here === first || !list.includes(here))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (here === last || !list.includes(here))) {
      e.preventDefault();
      first.focus();
    }
  }
}

/** Whether focus can go back to ``node``: still in the page, shown, and not inside something inert. */
function usable(node) {
  return !!node && node.isConnected && node.getClientRects().length > 0 && !node.closest("[inert]")
    && !node.closest("[hidden]");
}
