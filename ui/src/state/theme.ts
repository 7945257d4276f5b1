/**
 * Theme: dark by default (as TrueNAS), or follow the browser (as Proxmox), or light. Stored in
 * localStorage and applied as `data-theme` on <html>; the CSS does the rest.
 */
export type ThemeChoice = 'dark' | 'light' | 'system';
const KEY = 'zfs-advisor-theme';

export function readTheme(storage: Pick<Storage, 'getItem'> | null): ThemeChoice {
  const v = storage?.getItem(KEY);
  return v === 'light' || v === 'system' || v === 'dark' ? v : 'dark';
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement, storage: Pick<Storage, 'setItem'> | null): void {
  root.dataset.theme = choice;
  try { storage?.setItem(KEY, choice); } catch { /* storage disabled: the choice lasts this page only */ }
}

/**
 * Inside Cockpit the page follows Cockpit's own choice, which the shell keeps in localStorage
 * (`shell:style`: auto, dark or light; the iframe shares the shell's origin and storage).
 */
export const COCKPIT_STYLE_KEY = 'shell:style';
export function themeFromCockpitStyle(style: string | null): ThemeChoice {
  return style === 'dark' || style === 'light' ? style : 'system';
}
