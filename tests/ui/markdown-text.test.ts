// @vitest-environment happy-dom
/**
 * Finding and verdict text reaches the UI rendered: code spans as <code>, links as links, and no
 * literal backtick or Markdown link syntax on screen — for every finding and verdict of the demos
 * and reference snapshots, assessed now (not from a stored fixture).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mount, RouterLinkStub } from '@vue/test-utils';
import FindingCard from '../../ui/src/findings/FindingCard.vue';
import VerdictCard from '../../ui/src/optane/VerdictCard.vue';
import MdText from '../../ui/src/components/MdText.vue';
import { demoSnapshot, loadAndAssess, referenceSnapshot, SNAPSHOTS_DIR } from '../golden/golden-support.ts';

const snapshots = [
  ...['000-hdd-mirror-optane', '001-raidz2-12disk'].map(demoSnapshot),
  ...readdirSync(SNAPSHOTS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => referenceSnapshot(d.name)),
];

describe('Markdown in the UI', () => {
  it('MdText renders code, links and bold, escapes HTML and drops unsafe links', () => {
    const w = mount(MdText, { props: { text: 'Run `zpool status` — see [SLOG](docs/kb/slog.md#when-a-slog-helps), [x](javascript:alert(1)) and **<b>bold</b>**' } });
    expect(w.find('code').text()).toBe('zpool status');
    expect(w.find('a').attributes('href')).toBe('docs/kb/slog#when-a-slog-helps');
    expect(w.findAll('a')).toHaveLength(1);
    expect(w.find('strong').text()).toBe('<b>bold</b>');
    expect(w.html()).not.toContain('<b>bold');
    expect(w.text()).not.toContain('`');
  });

  it.each(snapshots)('%s: no literal backtick or [text](url) in any finding card or the verdict', async (dir) => {
    const { result } = await loadAndAssess(dir);
    expect(result.assessment.findings.length + (result.optane ? 1 : 0)).toBeGreaterThan(0);
    for (const f of result.assessment.findings) {
      const w = mount(FindingCard, { props: { finding: { ...f, ack: null, firstSeenAt: null }, busy: false } });
      const text = w.text();
      expect(text, f.ruleId).not.toContain('`');
      expect(text, f.ruleId).not.toMatch(/\]\((https?:|docs\/)/);
      for (const a of w.findAll('a')) expect(a.attributes('href'), f.ruleId).toMatch(/^(https:\/\/|docs\/kb\/[a-z-]+#[\w-]+$)/);
      if (/`[^`]+`/.test(f.explanation)) expect(w.find('p code').exists(), f.ruleId).toBe(true);
    }
    if (result.optane) {
      const w = mount(VerdictCard, { props: { verdict: result.optane }, global: { stubs: { RouterLink: RouterLinkStub } } });
      expect(w.text()).not.toMatch(/`[^`]*`|\]\((https?:|docs\/)/);
    }
  });
});
