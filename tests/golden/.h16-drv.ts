import { loadSnapshotInventory } from '/work/main/server/src/gather/load.ts';
const { inventory } = await loadSnapshotInventory(process.argv[2]!);
console.log(JSON.stringify(inventory.host));
for (const d of inventory.drives) console.log(d.id, d.devPath, d.byIdPath, JSON.stringify(d.aliases), d.sizeBytes);
