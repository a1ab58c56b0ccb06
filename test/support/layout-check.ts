// The layout rules of issue 41 item 9, run inside the page (page.evaluate(layoutProblems, min)):
// answers one line per problem found on the screen as it is now. Self-contained (no imports,
// no closures): playwright sends the function's text to the browser.

export const LayoutLimits = {
  /** Graphs shorter than this cannot be read (axis titles clipped, lines flattened). */
  minGraphPx: 120,
  /** The grid's Graph column narrower than this shows no usable bar (web/src/target/logic/gridFit.ts). */
  minGraphColumnPx: 180,
};

export function layoutProblems({ minGraphPx, minGraphColumnPx }: typeof LayoutLimits): string[] {
  const out: string[] = [];
  const root = document.documentElement;
  const vw = root.clientWidth;
  const slack = 1;
  const describe = (el: Element): string => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const testId = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id}${cls}${testId}>${text ? ` "${text}"` : ''}`;
  };
  const visible = (el: Element, r: DOMRect): boolean => {
    if (r.width < 2 || r.height < 2) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  /** Whether something between the element and the page clips or scrolls it. */
  const clippedByAncestor = (el: Element): boolean => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible') return true;
    }
    return false;
  };
  /** Screen readers' text, moved away or clipped to a pixel on purpose. */
  const screenReaderOnly = (el: Element, r: DOMRect): boolean => (r.width <= 1 && r.height <= 1) || getComputedStyle(el).clip.startsWith('rect(0');
  /** Boxes whose insides are drawn by a library that manages its own clipping (the grid, uPlot). */
  const library = (el: Element): boolean => el.closest('[data-testid=trace-grid] .dvn-scroller, .uplot, .gdg-style') !== null && !el.matches('[data-testid=trace-grid]');

  if (root.scrollWidth > root.clientWidth + slack) out.push(`the page scrolls sideways: ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);

  // One line for the outermost box past the edge, not one for each thing inside it.
  const pastEdge = new Set<Element>();
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const r = el.getBoundingClientRect();
    if (!visible(el, r) || screenReaderOnly(el, r) || library(el)) continue;
    const s = getComputedStyle(el);
    // Past the window's right (or left) edge with nothing that scrolls or clips it.
    if ((r.right > vw + slack || r.left < -slack) && (s.position === 'fixed' || !clippedByAncestor(el))) {
      pastEdge.add(el);
      if (!(el.parentElement && pastEdge.has(el.parentElement))) out.push(`${describe(el)} reaches past the window: x ${Math.round(r.left)}..${Math.round(r.right)} in a ${vw} px window`);
    }
    // Clipped: a box that hides what does not fit, with content that does not fit. A box that
    // ellipsizes its one line on purpose is fine when its title says the whole text.
    const hidesX = s.overflowX === 'hidden' || s.overflowX === 'clip';
    const hidesY = s.overflowY === 'hidden' || s.overflowY === 'clip';
    const wide = hidesX && el.scrollWidth > el.clientWidth + slack;
    const tall = hidesY && el.scrollHeight > el.clientHeight + slack;
    if (wide || tall) {
      const ellipsized = s.textOverflow === 'ellipsis' && el.closest('[title]') !== null && !tall;
      if (!ellipsized) out.push(`${describe(el)} clips its content: ${el.scrollWidth}x${el.scrollHeight} in a ${el.clientWidth}x${el.clientHeight} box`);
    }
  }

  // Graphs: every plotted timeline graph at least minGraphPx tall.
  for (const plot of Array.from(document.querySelectorAll('section.timeline-graph .timeline-plot'))) {
    const r = plot.getBoundingClientRect();
    if (plot.querySelector('canvas') && r.height < minGraphPx) {
      const title = plot.closest('section.timeline-graph')?.querySelector('.timeline-title')?.textContent ?? '';
      out.push(`the graph "${title}" is ${Math.round(r.height)} px tall (at least ${minGraphPx})`);
    }
  }
  // Controls within reach: no button sits past the side of a box that clips it without a
  // scrollbar (the LiveShare links grid's Delete button was cut at 1600 px). A box that scrolls
  // (a wide data grid at 1024 px) leaves them reachable.
  for (const button of Array.from(document.querySelectorAll('button, a.button'))) {
    const r = button.getBoundingClientRect();
    if (!visible(button, r) || library(button)) continue;
    for (let a = button.parentElement; a && a !== document.body; a = a.parentElement) {
      const overflow = getComputedStyle(a).overflowX;
      if (overflow === 'visible') continue;
      if (overflow === 'auto' || overflow === 'scroll') break;
      const box = a.getBoundingClientRect();
      if (r.right > box.right + slack || r.left < box.left - slack) out.push(`${describe(button)} is cut off sideways by ${describe(a)}: x ${Math.round(r.left)}..${Math.round(r.right)}, box ${Math.round(box.left)}..${Math.round(box.right)}`);
      break;
    }
  }
  // Controls not hidden under another box (the alerts sidebar, fixed at the right, covered the
  // target window's "Show / hide columns" at 1024 px): the topmost element at a button's
  // centre is the button or inside it. Dialogs and their backdrops cover on purpose.
  const inView = (el: Element, r: DOMRect) => {
    if (r.left < 0 || r.top < 0 || r.right > vw || r.bottom > root.clientHeight) return false;
    // Scrolled out of a scrolling box's view is not covered: that box scrolls to it.
    const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible' && getComputedStyle(a).overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (cx < box.left || cx > box.right || cy < box.top || cy > box.bottom) return false;
    }
    return true;
  };
  if (!document.querySelector('[role=dialog][aria-modal=true], .modal-backdrop')) {
    for (const button of Array.from(document.querySelectorAll('button, a.button'))) {
      const r = button.getBoundingClientRect();
      if (!visible(button, r) || library(button) || !inView(button, r)) continue;
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (top && top !== button && !button.contains(top)) out.push(`${describe(button)} is covered by ${describe(top)}`);
    }
  }
  for (const grid of Array.from(document.querySelectorAll('[data-graph-column-width]'))) {
    const width = Number(grid.getAttribute('data-graph-column-width'));
    if (width < minGraphColumnPx) out.push(`the grid's Graph column is ${width} px wide (at least ${minGraphColumnPx})`);
  }
  return out;
}
