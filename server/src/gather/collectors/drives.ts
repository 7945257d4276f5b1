/**
 * Drives collector: one Drive per physical disk, merged from lsblk (Linux), smartctl -a -j,
 * nvme list / smart-log, FreeBSD kern.disks + diskinfo, with every name it goes by (partitions,
 * /dev/disk/by-id links, gptid labels) so pool leaves can be resolved to it.
 */
import type { Drive, Gap } from '../../model/inventory.ts';
import {
  driveFromSmartctl, driveIdOf, flattenLsblk, parseDiskinfo, parseLsblk, parseNvmeList, parseNvmeSmartLog, parseSmartctl,
  type LsblkDevice, type NvmeNamespace,
} from '../../parsers/devices.ts';
import { filesUnder, usable, type RawSet } from '../../snapshot/raw-set.ts';
import { gap, issueGaps, missingGap } from '../gaps.ts';
import { parentDiskName, parseGlabelStatus, parseLinkListing, stripDev } from '../device-names.ts';
import { cmd, deviceFileName, type Collector, type GatherContext, type RawRequest } from '../request.ts';
import { partitionsFromGpart, partitionsFromLsblk } from '../partitions.ts';
import { driveUses } from '../drive-uses.ts';
import { parseGpartList } from '../../parsers/gpart-list.ts';

const A = 'Drives';
/** Block devices that are not drives we give advice about. */
const NOT_A_DRIVE = /^(loop|ram|zram|zd|sr|fd|md|dm-|nbd|rbd|drbd)/;

/** Disks named in kern.disks (FreeBSD) or lsblk (Linux), in a stable order. */
function diskNames(raw: RawSet): string[] {
  const names = new Set<string>();
  const ls = raw['lsblk.json'];
  if (usable(ls)) {
    const r = parseLsblk(ls.text);
    if (r.ok) for (const d of r.value) if ((d.type === 'disk' || d.type === null) && !NOT_A_DRIVE.test(d.name)) names.add(d.name);
  }
  const kd = raw['disks.txt'];
  if (usable(kd)) for (const n of kd.text.trim().split(/\s+/)) if (/^[A-Za-z0-9]+$/.test(n) && !NOT_A_DRIVE.test(n)) names.add(n);
  return [...names].sort();
}

/** smartctl on FreeBSD addresses NVMe controllers (nvme1), ZFS names namespaces (nvd1/nda1). */
const smartctlTarget = (name: string): string => {
  const m = /^(?:nvd|nda)(\d+)$/.exec(name);
  return m ? `/dev/nvme${m[1]}` : `/dev/${name}`;
};

function emptyDrive(name: string): Drive {
  return {
    id: `path:/dev/${name}`, devPath: `/dev/${name}`, aliases: [`/dev/${name}`], byIdPath: null, model: null, serial: null, wwn: null,
    firmware: null, sizeBytes: null, rotational: null, rpm: null, media: 'unknown', transport: 'unknown', logicalSectorSize: null,
    physicalSectorSize: null, optane: null, powerLossProtection: 'unknown', smartPassed: null, wearPct: null, temperatureC: null,
    powerOnHours: null, mediaErrors: null, reallocatedSectors: null, pendingSectors: null, sources: [],
  };
}

/** Fills nulls of `d` from `facts` (first source wins for everything it knows). */
function fill(d: Drive, facts: Partial<Drive>, source: string): Drive {
  const out: Drive = { ...d };
  let used = false;
  for (const [k, v] of Object.entries(facts) as [keyof Drive, Drive[keyof Drive]][]) {
    if (v === null || v === undefined || k === 'aliases' || k === 'sources' || k === 'id') continue;
    const cur = out[k];
    if (cur === null || cur === 'unknown') { (out as Record<string, unknown>)[k] = v; used = true; }
  }
  if (used && !out.sources.includes(source)) out.sources = [...out.sources, source];
  return out;
}

function fromLsblk(l: LsblkDevice): Partial<Drive> {
  return {
    model: l.model, serial: l.serial, wwn: l.wwn, firmware: l.revision, sizeBytes: l.sizeBytes, rotational: l.rotational,
    transport: l.transport, logicalSectorSize: l.logicalSectorSize, physicalSectorSize: l.physicalSectorSize,
    media: l.transport === 'nvme' ? 'nvme' : l.rotational === true ? 'hdd' : l.rotational === false ? 'ssd' : 'unknown',
  };
}

function fromNvme(n: NvmeNamespace): Partial<Drive> {
  return {
    model: n.model, serial: n.serial, firmware: n.firmware, sizeBytes: n.sizeBytes, logicalSectorSize: n.sectorSize,
    optane: n.optane, transport: 'nvme', media: 'nvme', rotational: false,
  };
}

export const drivesCollector: Collector<Drive[]> = {
  artifact: A,
  requests(raw, ctx: GatherContext): RawRequest[] {
    const reqs: RawRequest[] = [];
    if (ctx.platform === 'linux') {
      reqs.push(
        { file: 'lsblk.json', commands: [cmd('lsblk', '-J', '-O', '-b')] },
        { file: 'by-id.txt', commands: [cmd('ls', '-l', '/dev/disk/by-id')] },
        { file: 'nvme-list.json', commands: [cmd('nvme', 'list', '-o', 'json')] },
      );
    } else if (ctx.platform === 'freebsd') {
      reqs.push(
        { file: 'disks.txt', commands: [cmd('sysctl', '-n', 'kern.disks')] },
        { file: 'glabel-status.txt', commands: [cmd('geom', 'label', 'status')] },
        // The partition tables (= `gpart list`): partition sizes for vdevs built on partitions.
        { file: 'gpart-list.txt', commands: [cmd('geom', 'part', 'list')] },
      );
    }
    for (const name of diskNames(raw)) {
      const f = deviceFileName(name);
      reqs.push({ file: `smartctl/${f}.json`, commands: [cmd('smartctl', '-a', '-j', ctx.platform === 'freebsd' ? smartctlTarget(name) : `/dev/${name}`)] });
      if (ctx.platform === 'linux' && /^nvme\d+n\d+$/.test(name)) {
        reqs.push({ file: `nvme/${f}-smart-log.json`, commands: [cmd('nvme', 'smart-log', '-o', 'json', `/dev/${name}`)] });
      }
      if (ctx.platform === 'freebsd') reqs.push({ file: `diskinfo/${f}.txt`, commands: [cmd('diskinfo', '-v', `/dev/${name}`)] });
    }
    return reqs;
  },
  build(raw) {
    const gaps: Gap[] = [];
    const drives = new Map<string, Drive>();
    const get = (name: string) => drives.get(name) ?? emptyDrive(name);

    // lsblk: the disk list and sizes/sector sizes on Linux; partitions become aliases.
    const ls = raw['lsblk.json'];
    if (usable(ls)) {
      const r = parseLsblk(ls.text);
      if (r.ok) {
        gaps.push(...issueGaps(A, 'lsblk.json', r.issues, 'info'));
        for (const d of r.value) {
          if (!(d.type === 'disk' || d.type === null) || NOT_A_DRIVE.test(d.name)) continue;
          const base = fill(get(d.name), fromLsblk(d), 'lsblk');
          // TrueNAS SCALE names pool leaves by partition UUID (`/dev/disk/by-partuuid/<uuid>`,
          // bare `<uuid>` in zpool list): both resolve through this alias of the parent disk.
          const parts = flattenLsblk(d.children).flatMap((c) => [c.path, ...(c.partuuid ? [`/dev/disk/by-partuuid/${c.partuuid}`] : [])]);
          drives.set(d.name, { ...base, aliases: [...new Set([...base.aliases, ...parts])] });
        }
      } else gaps.push(gap(A, 'lsblk.json', `unreadable lsblk output: ${r.error.message}`, 'warning', r.error.line));
    }
    for (const n of diskNames(raw)) if (!drives.has(n)) drives.set(n, get(n));

    // smartctl per disk: identity and health.
    const smartFiles = filesUnder(raw, 'smartctl');
    let smartMissing: string | null = null;
    for (const file of smartFiles) {
      const name = file.slice('smartctl/'.length).replace(/\.json$/, '');
      const out = raw[file]!;
      if (out.error || out.text.trim() === '') {
        smartMissing ??= file;
        if (!out.error || !/not installed/i.test(out.error)) gaps.push(missingGap(A, file, out, `health of ${name} unknown`, 'warning'));
        continue;
      }
      const r = parseSmartctl(out.text, out.exitCode);
      if (!r.ok) { gaps.push(gap(A, file, `${r.error.message}: health of ${name} unknown`, 'warning', r.error.line)); continue; }
      gaps.push(...issueGaps(A, file, r.issues, 'info'));
      const s = driveFromSmartctl(r.value, `/dev/${name}`);
      const cur = get(name);
      // smartctl is the authority for health and identity; lsblk facts fill what it lacks.
      const base: Drive = { ...s, aliases: [...new Set([...cur.aliases, ...s.aliases])], sources: [...cur.sources, 'smartctl'] };
      const merged = cur.sources.length > 0 ? fill(base, cur, cur.sources[0]!) : base;
      drives.set(name, { ...merged, sources: [...new Set(merged.sources)] });
    }
    const anySmartRan = smartFiles.some((f) => usable(raw[f]) && raw[f]!.text.trim() !== '');
    const notInstalled = smartFiles.map((f) => raw[f]!).find((o) => o.error && /not installed/i.test(o.error));
    if (notInstalled && !anySmartRan) gaps.push(gap(A, 'smartctl', 'smartctl not installed: drive health unknown (install smartmontools)', 'warning'));
    else if (smartFiles.length === 0 && drives.size > 0) gaps.push(gap(A, 'smartctl', 'no smartctl output captured: drive health unknown', 'warning'));
    void smartMissing;

    // nvme list: model/serial/size for namespaces, Optane identification.
    const nl = raw['nvme-list.json'];
    if (usable(nl) && nl.text.trim() !== '') {
      const r = parseNvmeList(nl.text);
      if (r.ok) {
        for (const ns of r.value.namespaces) {
          const name = stripDev(ns.devicePath);
          drives.set(name, fill(get(name), fromNvme(ns), 'nvme'));
        }
      } else gaps.push(gap(A, 'nvme-list.json', `unreadable nvme list: ${r.error.message}`, 'info', r.error.line));
    }
    for (const file of filesUnder(raw, 'nvme')) {
      const name = file.slice('nvme/'.length).replace(/-smart-log\.json$/, '');
      const out = raw[file]!;
      if (!usable(out) || out.text.trim() === '') continue;
      const r = parseNvmeSmartLog(out.text);
      if (!r.ok) { gaps.push(gap(A, file, `unreadable nvme smart-log: ${r.error.message}`, 'info', r.error.line)); continue; }
      const l = r.value;
      drives.set(name, fill(get(name), { wearPct: l.percentageUsed, temperatureC: l.temperatureC, powerOnHours: l.powerOnHours, mediaErrors: l.mediaErrors }, 'nvme'));
    }
    // FreeBSD diskinfo: sector and media size.
    for (const file of filesUnder(raw, 'diskinfo')) {
      const name = file.slice('diskinfo/'.length).replace(/\.txt$/, '');
      const out = raw[file]!;
      if (!usable(out) || out.text.trim() === '') continue;
      const r = parseDiskinfo(out.text);
      if (!r.ok) { gaps.push(gap(A, file, `unreadable diskinfo: ${r.error.message}`, 'info', r.error.line)); continue; }
      const di = r.value;
      drives.set(name, fill(get(name), { sizeBytes: di.mediaSize, logicalSectorSize: di.sectorSize, serial: di.ident, rpm: di.rpm }, 'diskinfo'));
    }

    // Aliases from /dev/disk/by-id and glabel: every link pointing at the disk or one of its partitions.
    const links = usable(raw['by-id.txt']) ? parseLinkListing(raw['by-id.txt'].text) : new Map<string, string>();
    const labels = usable(raw['glabel-status.txt']) ? parseGlabelStatus(raw['glabel-status.txt'].text) : new Map<string, string>();
    const owner = (target: string): string | null => (drives.has(target) ? target : (() => { const p = parentDiskName(target); return p && drives.has(p) ? p : null; })());
    const addAlias = (diskName: string, alias: string) => {
      const d = drives.get(diskName)!;
      if (!d.aliases.includes(alias)) drives.set(diskName, { ...d, aliases: [...d.aliases, alias] });
    };
    for (const [link, target] of [...links].sort(([a], [b]) => a.localeCompare(b))) {
      const o = owner(target);
      if (o) addAlias(o, `/dev/disk/by-id/${link}`);
    }
    for (const [label, provider] of labels) {
      const o = owner(provider);
      if (o) { addAlias(o, `/dev/${label}`); addAlias(o, `/dev/${provider}`); }
    }

    // Partition tables: lsblk's `part` children (Linux), `gpart list` (FreeBSD).
    if (usable(ls)) {
      const r = parseLsblk(ls.text);
      if (r.ok) for (const d of r.value) if (drives.has(d.name)) drives.set(d.name, { ...drives.get(d.name)!, partitions: partitionsFromLsblk(d, links), uses: driveUses(d) });
    }
    const gl = raw['gpart-list.txt'];
    if (usable(gl) && gl.text.trim() !== '') {
      const r = parseGpartList(gl.text);
      if (r.ok) {
        gaps.push(...issueGaps(A, 'gpart-list.txt', r.issues, 'info'));
        for (const g of r.value) {
          const d = drives.get(g.name);
          if (!d) continue;
          const parts = partitionsFromGpart(g);
          drives.set(g.name, { ...d, partitions: parts, aliases: [...new Set([...d.aliases, ...parts.flatMap((p) => p.aliases)])] });
        }
      } else gaps.push(gap(A, 'gpart-list.txt', `unreadable gpart list: ${r.error.message}: partition sizes unknown`, 'info', r.error.line));
    }

    const out: Drive[] = [];
    for (const [name, d] of [...drives].sort(([a], [b]) => a.localeCompare(b))) {
      const wholeDiskLinks = [...links].filter(([, t]) => t === name).map(([l]) => l).sort();
      const preferred = wholeDiskLinks.find((l) => !l.startsWith('wwn-')) ?? wholeDiskLinks[0] ?? null;
      out.push({
        ...d,
        id: driveIdOf({ wwn: d.wwn, model: d.model, serial: d.serial, devicePath: d.devPath }),
        byIdPath: d.byIdPath ?? (preferred ? `/dev/disk/by-id/${preferred}` : null),
        aliases: [...new Set(d.aliases)].sort(),
      });
    }
    if (out.length === 0) {
      const src = raw['lsblk.json'] ? 'lsblk.json' : 'disks.txt';
      gaps.push(missingGap(A, src, raw[src], 'no drives listed: drive models, health and device classes unknown', 'error'));
    }
    return { value: out, gaps };
  },
};
