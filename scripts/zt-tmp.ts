import { readFileSync } from 'node:fs';
import { ALL_RULES } from '../rules/index.ts';
import { runRule, runRules } from '../rules/engine/engine.ts';
import { artifactsFromInventory } from '../server/src/model/artifacts.ts';
import { buildOptaneVerdict } from '../server/src/optane/verdict.ts';
const inv = JSON.parse(readFileSync('/tmp/i.json', 'utf8'));
const a = artifactsFromInventory(inv.inventory ?? inv);
const r = ALL_RULES.find((x) => x.meta.id === 'slog-benefit')!;
for (let i = 0; i < 3; i++) { const t = performance.now(); runRule(r, a); console.log('slog-benefit', (performance.now() - t).toFixed(1)); }
let t = performance.now(); const as = runRules(ALL_RULES, a); console.log('runRules', (performance.now() - t).toFixed(0));
t = performance.now(); buildOptaneVerdict(a, as); console.log('optane', (performance.now() - t).toFixed(0));
