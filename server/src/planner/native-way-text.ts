/**
 * A NativeWay as lines of text, in the order a person follows them: the platform's sentence, its
 * UI steps, its API requests (method, the exact JSON, the REST form, the midclt call), then the
 * heading for the shell commands that follow (fallback, native or only way). The CLI prints these
 * lines; Markdown puts the JSON in code spans. The words are the model's (native-way.ts).
 */
import type { NativeWay } from '../model/finding.ts';

export interface NativeWayText {
  intro: string;
  /** What the platform's release refuses of the plan and what the steps give instead (TrueNAS 26+), or null. */
  refused: string | null;
  ui: { heading: string; steps: string[] } | null;
  /** `call`: the JSON-RPC 2.0 request (SCALE 25.04+), null where the release speaks REST only (CORE). */
  api: { heading: string; requests: { purpose: string; call: string | null; rest: string | null; midclt: string }[] } | null;
  /** Heading for the shell commands that follow. */
  shellHeading: string;
}

const SHELL: Record<NativeWay['shell'], string> = { fallback: 'Shell (fallback)', native: 'Shell (the native way)', only: 'Shell (the only way)' };

/** The request's JSON-RPC 2.0 text; a pool id still to ask for is an unquoted hole (`<id of tank>`), never a string. */
function jsonRpcText(r: NativeWay['api'][number], id: number): string {
  if (typeof r.poolIdFrom !== 'number') return JSON.stringify({ jsonrpc: '2.0', id, method: r.method, params: r.params });
  const pool = /<id of ([^>]+)>/.exec(r.rest?.path ?? r.purpose)?.[1] ?? 'the pool';
  const text = JSON.stringify({ jsonrpc: '2.0', id, method: r.method, params: ['\u0000', ...r.params.slice(1)] });
  return text.replace('"\\u0000"', `<id of ${pool}>`);
}

export function nativeWayText(n: NativeWay): NativeWayText {
  // Stored findings from before the release was read carry no heading: the 25.x wording then.
  const jsonRpc = n.jsonRpc ?? null;
  return {
    intro: `${n.platformName}: ${n.summary}`,
    refused: n.refused ?? null,
    ui: n.uiSteps.length ? { heading: `In the ${n.platformName} UI`, steps: n.uiSteps } : null,
    api: n.api.length
      ? {
        heading: n.apiHeading ?? (n.platform === 'truenas-core'
          ? `Through the ${n.platformName} API (REST, https://HOST/api/v2.0; or midclt on the box)`
          : `Through the ${n.platformName} API (JSON-RPC 2.0 over wss://HOST/api/current from 25.04; REST up to 25.10; or midclt on the box)`),
        requests: n.api.map((r, i) => ({
          purpose: r.purpose,
          call: n.platform === 'truenas-core' || jsonRpc === false ? null : jsonRpcText(r, i + 1),
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
  if (t.refused) lines.push('', `Refused: ${t.refused}`);
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
