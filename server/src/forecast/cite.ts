/**
 * Links for the forecast's and the verdict's sentences: a numbered fact of the fact sheet becomes
 * a Markdown link to its first public source (rules/lib/fact-sources.ts: OpenZFS source or man
 * page at a release tag, OpenZFS docs), so a reader can open what a sentence rests on.
 */
import { FACT_SOURCES } from '../../../rules/lib/fact-sources.ts';

/** `[OpenZFS zfs.4 at zfs-2.4.4](https://…)` for fact "A10"; throws on a fact without a source (a typo fails tests). */
export function factLink(id: string): string {
  const s = FACT_SOURCES[id]?.[0];
  if (!s) throw new Error(`fact ${id} has no linkable source`);
  return `[${s.source}${s.locator ? `, ${s.locator}` : ''}](${s.url})`;
}

/** A Markdown link, or the text alone when the address is not an http(s) URL. */
export const mdLink = (text: string, url: string | null): string => (url && /^https?:\/\/\S+$/.test(url) ? `[${text}](${url})` : text);
