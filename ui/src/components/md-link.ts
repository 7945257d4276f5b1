/**
 * Where a link in server text leads in the app: knowledge-page links (`docs/kb/slog.md#x`) to the
 * pages this server serves, relative to the document's <base> (the UI's base path); http(s) as is;
 * anything else to nothing.
 */
import { servedKbUrl, parseKbUrl } from '../../../server/src/kb/catalog.ts';

export function linkTarget(href: string | null): string | undefined {
  if (!href) return undefined;
  if (parseKbUrl(href)) return servedKbUrl(href);
  return /^https?:\/\/[^\s<>"']+$/i.test(href) ? href : undefined;
}
