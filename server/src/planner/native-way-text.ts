/**
 * A NativeWay as lines of text, in the order a person follows them: the platform's sentence, its
 * UI steps, its API requests (method, the exact JSON, the REST form, the midclt call), then the
 * heading for the shell commands that follow (fallback, native or only way). The CLI prints these
 * lines; Markdown puts the JSON in code spans. The words are the model's (native-way.ts).
 */
import type { NativeWay } from '../model/finding.ts';

export interface NativeWayText {
  intro: string;
  ui: { heading: string; steps: string[] } | null;
  /** `call`: the JSON-RPC 2.0 request (SCALE 25.04+), null where the release speaks REST only (CORE). */
  api: { heading: string; requests: { purpose: string; call: string | null; rest: string | null; midclt: string }[] } | null;
  /** Heading for the shell commands that follow. */
  shellHeading: string;
}

const SHELL: Record<NativeWay['shell'], string> = { fallback: 'Shell (fallback)', native: 'Shell (the native way)', only: 'Shell (the only way)' };

export function nativeWayText(n: NativeWay): NativeWayText {
  return {
    intro: `${n.platformName}: ${n.summary}`,
    ui: n.uiSteps.length ? { heading: `In the ${n.platformName} UI`, steps: n.uiSteps } : null,
    api: n.api.length
      ? {
        heading: n.platform === 'truenas-core'
          ? `Through the ${n.platformName} API (REST, https://HOST/api/v2.0; or midclt on the box)`
          : `Through the ${n.platformName} API (JSON-RPC 2.0 over wss://HOST/api/current from 25.04; REST up to 25.10; or midclt on the box)`,
        requests: n.api.map((r, i) => ({
          purpose: r.purpose,
          call: n.platform === 'truenas-core' ? null : JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: r.method, params: r.params }),
          rest: r.rest ? `${r.rest.method} ${r.rest.path}${r.rest.body === null ? '' : ` ${JSON.stringify(r.rest.body)}`}` : null,
          midclt: r.midclt,
        })),
      }
      : null,
    shellHeading: `${SHELL[n.shell]} — ${n.shellWhy}`,
  };
}

/** Plain lines for the terminal. */
export function nativeWayLines(n: NativeWay): string[] {
  const t = nativeWayText(n);
  const lines = [t.intro];
  if (t.ui) lines.push('', `${t.ui.heading}:`, ...t.ui.steps.map((s, i) => `  ${i + 1}. ${s}`));
  if (t.api) {
    lines.push('', `${t.api.heading}:`);
    t.api.requests.forEach((r, i) => {
      lines.push(`  ${String.fromCharCode(97 + i)}. ${r.purpose}`);
      if (r.call) lines.push(`     JSON-RPC: ${r.call}`);
      if (r.rest) lines.push(`     REST: ${r.rest}`);
      lines.push(`     on the TrueNAS shell: ${r.midclt}`);
    });
  }
  lines.push('', `${t.shellHeading}:`);
  return lines;
}
