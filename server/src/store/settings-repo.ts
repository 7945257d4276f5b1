/** Settings: one row per top-level key, validated against the API's Settings schema on read. */
import type { Database } from 'better-sqlite3';
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from '../api/schemas.ts';

export function createSettingsRepo(db: Database) {
  const all = db.prepare('SELECT key, value_json FROM settings');
  const upsert = db.prepare(`INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`);

  const get = (): Settings => {
    const stored: Record<string, unknown> = {};
    for (const r of all.all() as { key: string; value_json: string }[]) {
      try { stored[r.key] = JSON.parse(r.value_json); } catch { /* a damaged value falls back to the default */ }
    }
    const merged = {
      ...DEFAULT_SETTINGS,
      ...stored,
      retention: { ...DEFAULT_SETTINGS.retention, ...(isRecord(stored.retention) ? stored.retention : {}) },
      benchmark: { ...DEFAULT_SETTINGS.benchmark, ...(isRecord(stored.benchmark) ? stored.benchmark : {}) },
      observation: { ...DEFAULT_SETTINGS.observation, ...(isRecord(stored.observation) ? stored.observation : {}) },
    };
    const parsed = Settings.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULT_SETTINGS;
  };

  return {
    get,
    update: (patch: SettingsPatch): Settings => {
      const current = get();
      const next: Settings = {
        assessmentIntervalMinutes: patch.assessmentIntervalMinutes ?? current.assessmentIntervalMinutes,
        retention: { ...current.retention, ...stripUndefined(patch.retention ?? {}) },
        benchmark: { ...current.benchmark, ...stripUndefined(patch.benchmark ?? {}) },
        observation: { ...current.observation, ...stripUndefined(patch.observation ?? {}) },
      };
      const valid = Settings.parse(next);
      const now = new Date().toISOString();
      db.transaction(() => {
        for (const [k, v] of Object.entries(valid)) upsert.run(k, JSON.stringify(v), now);
      })();
      return valid;
    },
  };
}
export type SettingsRepo = ReturnType<typeof createSettingsRepo>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
