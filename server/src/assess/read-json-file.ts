import { readFile } from 'node:fs/promises';

/** Reads and parses a JSON file given on the command line; failures as one-line messages naming the file. */
export async function readJsonFile(file: string): Promise<{ ok: true; json: unknown } | { ok: false; message: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `${file}: not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
}
