/**
 * Is anything cut off on a narrow screen? Measured in the page (real layout, real fonts):
 * - a table cell or a tab is clipped when its box reaches past the viewport, or past an ancestor
 *   that hides overflow, unless the part beyond is reachable by scrolling an ancestor sideways
 *   (overflow-x auto/scroll with more content than room) — then that ancestor's own box must be
 *   whole instead; text cut inside a cell (overflow hidden or an ellipsis) is clipped too;
 * - a table that scrolls sideways does so in its own box (the table's parent), and its first
 *   column stays put over the scrolled cells (sticky, opaque: the pinned cell is what is seen).
 */
import type { Page } from 'playwright-core';

export interface ClippedCell { what: string; text: string; why: string }

/** Every visible table cell in `main` and every tab of the navigation that is cut off. */
export async function clippedCells(page: Page): Promise<ClippedCell[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const SLACK = 1; // sub-pixel rounding
    const name = (el: Element): string => {
      const id = el.getAttribute('data-testid') ?? el.getAttribute('aria-label');
      return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    };
    const scrolls = (el: Element, cs: CSSStyleDeclaration) => (cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth;
    const boxCut = (el: Element): string | null => {
      let r = el.getBoundingClientRect();
      for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === 'visible') continue;
        const ar = a.getBoundingClientRect();
        // Reachable by scrolling this ancestor: from here on its own box is what must be whole.
        if (scrolls(a, cs)) { r = ar; continue; }
        if (r.left < ar.left - SLACK || r.right > ar.right + SLACK) return `cut by ${name(a)} (${Math.round(r.left)}–${Math.round(r.right)} px in ${Math.round(ar.left)}–${Math.round(ar.right)} px)`;
      }
      if (r.left < -SLACK || r.right > vw + SLACK) return `past the viewport (${Math.round(r.left)}–${Math.round(r.right)} px of ${vw} px)`;
      return null;
    };
    const textCut = (cell: Element): string | null => {
      for (const el of [cell, ...Array.from(cell.querySelectorAll('*'))]) {
        if (el.getClientRects().length === 0 || el.clientWidth <= 1) continue; // hidden, or .sr-only
        const cs = getComputedStyle(el);
        const hides = cs.overflowX === 'hidden' || cs.overflowX === 'clip' || cs.textOverflow === 'ellipsis';
        if (hides && el.scrollWidth > el.clientWidth + SLACK) return `text cut in ${name(el)} (${el.scrollWidth} px in ${el.clientWidth} px)`;
      }
      return null;
    };
    const nearestScroller = (el: Element): Element | null => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (scrolls(a, getComputedStyle(a))) return a;
      return null;
    };
    const out: { what: string; text: string; why: string }[] = [];
    const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    for (const table of Array.from(document.querySelectorAll('main table'))) {
      const label = table.getAttribute('data-testid') ?? table.closest('[aria-label]')?.getAttribute('aria-label') ?? text(table.querySelector('th') ?? table).slice(0, 20);
      for (const cell of Array.from(table.querySelectorAll('th, td'))) {
        if (cell.getClientRects().length === 0 || cell.closest('.sr-only')) continue;
        const tr = cell.parentElement as HTMLTableRowElement;
        const what = `table ${label}, row ${tr.rowIndex}, column ${(cell as HTMLTableCellElement).cellIndex}`;
        const why = boxCut(cell) ?? textCut(cell);
        if (why) { out.push({ what, text: text(cell), why }); continue; }
        const s = nearestScroller(cell);
        if (s && s !== table.parentElement) out.push({ what, text: text(cell), why: `scrolls with ${name(s)}, not in the table's own box` });
      }
    }
    for (const tab of Array.from(document.querySelectorAll('.app-nav a'))) {
      const why = boxCut(tab) ?? textCut(tab);
      if (why) out.push({ what: 'tab', text: text(tab), why });
    }
    return out;
  });
}

/** Tabs that can only be seen by scrolling the navigation sideways (a scrolled-off tab reads as cut). */
export async function tabsOutOfSight(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('.app-nav a')).filter((a) => {
      const r = a.getBoundingClientRect();
      return r.left < -1 || r.right > vw + 1;
    }).map((a) => (a.textContent ?? '').trim());
  });
}

export interface PinProblem { table: string; why: string }

/**
 * For every table that scrolls sideways in its own box: scroll that box by 200 px (or to its end)
 * and check that each first-column cell kept its place, that the other cells moved, and that the
 * pinned cell covers them: an opaque background of its own, and on top (what is hit at its centre
 * belongs to it).
 * Scrolls every box back.
 */
export async function unpinnedFirstColumns(page: Page): Promise<{ checked: number; problems: PinProblem[] }> {
  const ids = await page.evaluate(() => {
    const tables = Array.from(document.querySelectorAll('main table')).filter((t) => {
      const p = t.parentElement;
      return p && t.getClientRects().length > 0 && p.scrollWidth > p.clientWidth && /auto|scroll/.test(getComputedStyle(p).overflowX);
    });
    tables.forEach((t, i) => t.setAttribute('data-pin-check', String(i)));
    return tables.map((_, i) => String(i));
  });
  const problems: PinProblem[] = [];
  for (const id of ids) {
    const found = await page.evaluate(async (id) => {
      const table = document.querySelector(`[data-pin-check="${id}"]`) as HTMLTableElement;
      const box = table.parentElement!;
      const label = table.getAttribute('data-testid') ?? box.getAttribute('aria-label') ?? (table.querySelector('th')?.textContent ?? '').trim().slice(0, 20);
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      box.scrollIntoView({ block: 'start' });
      box.scrollLeft = 0;
      await frame();
      const rows = Array.from(table.rows).filter((r) => r.getClientRects().length > 0);
      const first = rows.map((r) => r.cells[0]).filter((c): c is HTMLTableCellElement => !!c && c.colSpan === 1);
      const others = rows.map((r) => r.cells[r.cells.length - 1]).filter((c): c is HTMLTableCellElement => !!c && c.cellIndex > 0);
      const before = first.map((c) => c.getBoundingClientRect().left);
      const othersBefore = others.map((c) => c.getBoundingClientRect().left);
      box.scrollLeft = 200;
      await frame();
      const moved = box.scrollLeft;
      const why: string[] = [];
      if (moved <= 0) why.push('the box did not scroll');
      const stayed = first.filter((c, i) => {
        const d = c.getBoundingClientRect().left - before[i]!;
        if (Math.abs(d) > 1) why.push(`first cell of row ${(c.parentElement as HTMLTableRowElement).rowIndex} ("${(c.textContent ?? '').trim().slice(0, 20)}") moved ${Math.round(d)} px`);
        return Math.abs(d) <= 1;
      });
      if (!others.some((c, i) => Math.abs(c.getBoundingClientRect().left - othersBefore[i]! + moved) <= 1)) why.push('no other cell moved with the scroll');
      // Hit-testing finds the pinned cell even when it is transparent: its own background must cover.
      const alpha = (color: string): number => {
        const m = /rgba\([^)]*,\s*([\d.]+)\)$/.exec(color) ?? /\/\s*([\d.]+)\s*\)$/.exec(color);
        return m ? Number(m[1]) : 1;
      };
      for (const c of stayed) {
        const bg = getComputedStyle(c).backgroundColor;
        if (alpha(bg) < 1) why.push(`the first cell of row ${(c.parentElement as HTMLTableRowElement).rowIndex} is see-through (background ${bg}): scrolled cells show under it`);
      }
      for (const c of stayed) {
        const r = c.getBoundingClientRect();
        const x = r.left + Math.min(r.width / 2, 20);
        const y = r.top + r.height / 2;
        if (y < 0 || y > window.innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        if (!hit || !c.contains(hit)) why.push(`a scrolled cell shows over the first cell of row ${(c.parentElement as HTMLTableRowElement).rowIndex} (${hit ? hit.tagName.toLowerCase() : 'nothing'} "${(hit?.textContent ?? '').trim().slice(0, 20)}" on top)`);
      }
      box.scrollLeft = 0;
      table.removeAttribute('data-pin-check');
      return why.map((w) => ({ table: label, why: w }));
    }, id);
    problems.push(...found);
  }
  return { checked: ids.length, problems };
}
