const m = await import('./h21-fidelity-smoke.ts');
console.log(await m.default());
