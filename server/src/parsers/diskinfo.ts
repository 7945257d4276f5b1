/**
 * FreeBSD `diskinfo -wS DEV` (also plain `diskinfo -v`): the header block of `value  # comment`
 * lines and the "Synchronous random writes" table Alexander Motin added to measure cache-flush
 * latency (zfs-facts E1/E2), e.g.
 *     4 kbytes:     13.6 usec/IO =    287.2 Mbytes/s
 */
import { failed, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';

export interface DiskinfoSyncWrite {
  blockKiB: number;
  usecPerIo: number;
  mbPerSec: number;
}

export interface Diskinfo {
  device: string | null;
  sectorSize: number | null;
  mediaSize: number | null;
  mediaSectors: number | null;
  description: string | null;
  ident: string | null;
  attachment: string | null;
  trim: boolean | null;
  rpm: number | null;
  syncWrites: DiskinfoSyncWrite[];
}

const ROW = /^\s*(\d+(?:\.\d+)?)\s+kbytes:\s+(\d+(?:\.\d+)?)\s+usec\/IO\s+=\s+(\d+(?:\.\d+)?)\s+Mbytes\/s\s*$/;
const FIELD = /^\s+(.+?)\s+#\s+(.+?)\s*$/;

export function parseDiskinfo(text: string): ParseOutcome<Diskinfo> {
  const lines = splitLines(text);
  const out: Diskinfo = {
    device: null, sectorSize: null, mediaSize: null, mediaSectors: null, description: null,
    ident: null, attachment: null, trim: null, rpm: null, syncWrites: [],
  };
  const issues: ParseIssue[] = [];
  let inSync = false;
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\t/g, '        ');
    if (/^\/dev\/\S+\s*$/.test(line.trim()) && out.device === null && !line.startsWith(' ')) {
      out.device = line.trim();
      continue;
    }
    if (/^Synchronous random writes:/.test(line.trim())) { inSync = true; continue; }
    if (inSync) {
      const m = ROW.exec(line);
      if (m) {
        out.syncWrites.push({ blockKiB: Number(m[1]), usecPerIo: Number(m[2]), mbPerSec: Number(m[3]) });
        continue;
      }
      if (line.trim() === '') continue;
      if (/kbytes:/.test(line)) issues.push({ line: i + 1, message: `unreadable sync-write row: ${line.trim()}` });
      else inSync = false;
      continue;
    }
    const f = FIELD.exec(line);
    if (!f) continue;
    const [value, comment] = [f[1]!, f[2]!.toLowerCase()];
    const n = /^\d+$/.test(value) ? Number(value) : null;
    if (comment === 'sectorsize') out.sectorSize = n;
    else if (comment.startsWith('mediasize in bytes')) out.mediaSize = n;
    else if (comment.startsWith('mediasize in sectors')) out.mediaSectors = n;
    else if (comment.startsWith('disk descr')) out.description = value;
    else if (comment.startsWith('disk ident')) out.ident = value;
    else if (comment.startsWith('attachment')) out.attachment = value;
    else if (comment.startsWith('trim/unmap')) out.trim = value.toLowerCase() === 'yes';
    else if (comment.startsWith('rotation rate')) out.rpm = n === 0 ? null : n;
  }
  if (out.sectorSize === null && out.mediaSize === null && out.syncWrites.length === 0) {
    return failed('no diskinfo fields (sectorsize, mediasize) or sync-write rows found', null, issues);
  }
  return parsed(out, issues);
}
