/** Loads tests/fixtures/ui (see its PROVENANCE.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FindingsList, OptaneVerdictView } from '../../server/src/api/contract.ts';
import type { Inventory } from '../../server/src/model/inventory.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'ui');
export const fixtureText = (name: string): string => readFileSync(join(dir, name), 'utf8');
export const inventory000 = (): Inventory => JSON.parse(fixtureText('inventory-000-hdd-mirror-optane.json')) as Inventory;
export const inventory001 = (): Inventory => JSON.parse(fixtureText('inventory-001-raidz2-12disk.json')) as Inventory;
export const findings000 = (): FindingsList => JSON.parse(fixtureText('findings-000-hdd-mirror-optane.json')) as FindingsList;
export const optane000 = (): OptaneVerdictView => JSON.parse(fixtureText('optane-000-hdd-mirror-optane.json')) as OptaneVerdictView;
