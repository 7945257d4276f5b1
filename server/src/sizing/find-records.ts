/**
 * Parser of the records `find -printf` writes for the fast walk (find-walk.ts), fed with raw pipe
 * chunks that may split a record anywhere. Records are NUL-terminated, so no file name can break
 * them:
 *   f SIZE BLOCKS512 INODE NLINK DEV   regular file
 *   d DEV PATH                         directory (PATH decoded only for mount-point examples)
 *   l                                  symbolic link
 *   o                                  fifo, socket, device node…
 * It applies the walker's rules (walker.ts): the first record is the root directory and gives the
 * filesystem; an entry on another st_dev is a skipped mount point; a file with nlink > 1 is counted
 * once per inode. Memory: the hard-link inode set plus at most one partial record.
 */
import type { SizeAccumulator } from './histogram.ts';
import type { WalkStats } from './walker.ts';

const EXAMPLES = 10;
const NUL = 0;
const SPACE = 0x20;
const ZERO = 0x30;
const F = 0x66; // 'f'
const D = 0x64; // 'd'
const L = 0x6c; // 'l'
const O = 0x6f; // 'o'

/** The find expression (after the start points and -xdev) that writes these records. */
export const RECORD_EXPRESSION: readonly string[] = [
  '(', '-type', 'f', '-printf', 'f %s %b %i %n %D\\0', ')', '-o',
  '(', '-type', 'd', '-printf', 'd %D %p\\0', ')', '-o',
  '(', '-type', 'l', '-printf', 'l\\0', ')', '-o',
  '-printf', 'o\\0',
];

/** The find command line that writes these records for one tree (GNU find; no shell involved, so no quoting). */
export function findRecordArgs(root: string): string[] {
  // A start point beginning with '-' or '(' would be read as part of the expression.
  const start = /^[-(!)]/.test(root) ? `./${root}` : root;
  return [start, '-xdev', ...RECORD_EXPRESSION];
}

export class FindRecordParser {
  /** Records parsed so far (progress). */
  records = 0;
  private rootDev: number;
  private rest: Buffer | null = null;
  private pos = 0;
  private readonly seenInodes: Set<number>;

  /**
   * `rootDev`: the root's filesystem when the stream does not start at the root (a subtree of a
   * parallel walk); `seenInodes`: the hard-link set shared by the parsers of one walk.
   */
  constructor(private readonly sizes: SizeAccumulator, private readonly stats: WalkStats, shared: { rootDev?: number; seenInodes?: Set<number> } = {}) {
    this.rootDev = shared.rootDev ?? -1;
    this.seenInodes = shared.seenInodes ?? new Set<number>();
  }

  /** True once the root record has been seen. */
  get sawRoot(): boolean {
    return this.rootDev >= 0;
  }

  /** True when the input so far ends inside a record (a torn stream if nothing follows). */
  get partial(): boolean {
    return this.rest !== null;
  }

  /** Parses every complete record; keeps a trailing partial one for the next chunk. Throws on malformed input. */
  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const end = buf.lastIndexOf(NUL) + 1;
    this.parse(buf, end);
    this.rest = end < buf.length ? Buffer.from(buf.subarray(end)) : null;
  }

  private mount(path: string): void {
    this.stats.mountPointsSkipped++;
    if (this.stats.mountPointExamples.length < EXAMPLES) this.stats.mountPointExamples.push(path);
  }

  /** A decimal number ending at `terminator`; doubles are exact up to 2^53, as Node's own Stats are. */
  private num(buf: Buffer, terminator: number): number {
    let v = 0;
    for (;;) {
      const c = buf[this.pos++];
      if (c === terminator) return v;
      const digit = (c ?? -1) - ZERO; // past the end → not a digit → malformed
      if (!(digit >= 0 && digit <= 9)) throw new Error(`malformed find record near byte ${this.pos - 1}`);
      v = v * 10 + digit;
    }
  }

  /** Whole records in buf[0, end), `end` just past a NUL. The hot loop makes no strings for files. */
  private parse(buf: Buffer, end: number): void {
    const { stats, sizes, seenInodes } = this;
    this.pos = 0;
    while (this.pos < end) {
      const type = buf[this.pos];
      if (buf[this.pos + 1] !== (type === F || type === D ? SPACE : NUL)) throw new Error(`malformed find record near byte ${this.pos}`);
      if (type === F) {
        this.pos += 2;
        const size = this.num(buf, SPACE);
        const blocks = this.num(buf, SPACE);
        const ino = this.num(buf, SPACE);
        const nlink = this.num(buf, SPACE);
        const dev = this.num(buf, NUL);
        if (this.rootDev < 0) throw new Error('find record for a file before the root directory');
        if (dev !== this.rootDev) {
          this.mount(`(a file on another filesystem, inode ${ino})`);
        } else if (nlink > 1 && seenInodes.has(ino)) {
          stats.hardLinkDuplicates++;
        } else {
          if (nlink > 1) seenInodes.add(ino);
          stats.files++;
          sizes.addFile(size, blocks * 512);
        }
      } else if (type === D) {
        this.pos += 2;
        const dev = this.num(buf, SPACE);
        const nameStart = this.pos;
        const nameEnd = buf.indexOf(NUL, nameStart);
        this.pos = nameEnd + 1;
        if (this.rootDev < 0) this.rootDev = dev; // the first record is the root itself
        if (dev !== this.rootDev) this.mount(buf.toString('utf8', nameStart, nameEnd));
        else { stats.dirs++; sizes.addDirectory(); }
      } else if (type === L) {
        stats.symlinks++;
        this.pos += 2;
      } else if (type === O) {
        stats.otherEntries++;
        this.pos += 2;
      } else {
        throw new Error(`unknown find record type near byte ${this.pos}`);
      }
      this.records++;
    }
  }
}
