import { loadAndAssess, project, demoSnapshot, referenceSnapshot } from '/work/main/tests/golden/golden-support.ts';
const name = process.argv[2]!;
const dir = name.startsWith('demo:') ? demoSnapshot(name.slice(5)) : referenceSnapshot(name);
const { inventory, result } = await loadAndAssess(dir);
if (process.argv[3] === 'full') console.log(JSON.stringify(result.assessment.findings.filter(f=>!process.argv[4]||f.ruleId===process.argv[4]), null, 1));
else if (process.argv[3] === 'res') console.log(JSON.stringify(result.assessment.results.filter(f=>f.ruleId===process.argv[4]), null, 1));
else if (process.argv[3] === 'inv') console.log(JSON.stringify(inventory.pools, null, 1));
else if (process.argv[3] === 'optane') console.log(JSON.stringify(result.optane, null, 1));
else console.log(JSON.stringify(project(inventory, result), null, 1));
