/**
 * The shape of one schema migration. Each file `server/src/store/migrations/NNNN-name.ts`
 * default-exports one of these; `openStore()` applies the pending ones in version order,
 * each inside its own transaction, and records it in `schema_migrations`.
 */
import type { Database } from 'better-sqlite3';

export interface Migration {
  /** Positive integer, equal to the NNNN prefix of the file name. */
  version: number;
  /** Short kebab-case name, equal to the rest of the file name. */
  name: string;
  /** Runs inside a transaction: throw to roll back. Never touch `schema_migrations` here. */
  up(db: Database): void;
}

/** Type guard for a migration module's default export (the directory is discovered at run time). */
export function isMigration(value: unknown): value is Migration {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.version) && (v.version as number) > 0 && typeof v.name === 'string' && typeof v.up === 'function';
}
