/**
 * The JSON Schema of the JSON report (draft 2020-12), generated from the zod document schema.
 * Served at `GET /api/report-schema.json` and committed as `report-schema.json` beside this file
 * (`npx tsx server/src/report/schema.ts` rewrites it; a test fails when it is stale).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { REPORT_SCHEMA_VERSION, ReportDocument } from './document.ts';

export const REPORT_SCHEMA_FILE = fileURLToPath(new URL('./report-schema.json', import.meta.url));

export function reportJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ReportDocument, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: `urn:zfs-advisor:report:v${REPORT_SCHEMA_VERSION}`,
    title: `ZFS Advisor report, schema version ${REPORT_SCHEMA_VERSION}`,
    ...schema,
  };
}

export const reportJsonSchemaText = (): string => `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(REPORT_SCHEMA_FILE, reportJsonSchemaText());
  process.stdout.write(`wrote ${REPORT_SCHEMA_FILE}\n`);
}
