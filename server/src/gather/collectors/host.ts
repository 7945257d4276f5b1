/**
 * Host collector: platform (uname), distribution (TrueNAS SCALE/CORE, Proxmox VE, other), the
 * OpenZFS version and memory size.
 *
 * Detection: TrueNAS CORE is FreeBSD with `TRUENAS` in the kernel ident (uname -a) or /etc/version
 * saying TrueNAS; SCALE is Linux with /etc/version or a `+truenas` kernel; Proxmox VE answers
 * `pveversion` (pve-manager/…) or has a `-pve` kernel.
 */
import type { Host, ZfsVersion } from '../../model/inventory.ts';
import { parseZfsVersion } from '../../parsers/zfs-version.ts';
import { usable, type RawSet } from '../../snapshot/raw-set.ts';
import { gap, issueGaps, missingGap } from '../gaps.ts';
import { cmd, platformFromUname, type Collector, type GatherContext, type RawRequest } from '../request.ts';

const A = 'Host';

function osRelease(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.replace(/^["']|["']$/g, '');
  }
  return out;
}

/** zfs-fuse prints no version; its `zpool status` says ` scrub:` where OpenZFS says ` scan:`. */
function looksLikeZfsFuse(raw: RawSet): boolean {
  const st = raw['zpool-status.txt'];
  return usable(st) && /^\s*scrub:/m.test(st.text) && !/^\s*scan:/m.test(st.text);
}

function distribution(raw: RawSet, platform: Host['platform'], uname: string): Pick<Host, 'distribution' | 'distributionVersion'> {
  const version = usable(raw['truenas-version.txt']) ? raw['truenas-version.txt'].text.trim() : null;
  const os = osRelease(raw['os-release.txt']?.text);
  if (platform === 'freebsd') {
    if (/\bTRUENAS\b/.test(uname) || /truenas/i.test(version ?? '')) return { distribution: 'truenas-core', distributionVersion: version };
    return { distribution: 'other', distributionVersion: uname.split(/\s+/)[2] ?? null };
  }
  if (platform === 'linux') {
    if (version !== null || /\+truenas/i.test(uname) || /truenas/i.test(os.NAME ?? '')) return { distribution: 'truenas-scale', distributionVersion: version };
    const pve = usable(raw['pveversion.txt']) ? /pve-manager\/(\S+?)\//.exec(raw['pveversion.txt'].text) : null;
    if (pve) return { distribution: 'proxmox-ve', distributionVersion: pve[1] ?? null };
    if (/-pve\b/.test(uname)) return { distribution: 'proxmox-ve', distributionVersion: null };
    if (os.NAME) return { distribution: 'other', distributionVersion: [os.NAME, os.VERSION_ID].filter(Boolean).join(' ') };
  }
  return { distribution: 'unknown', distributionVersion: null };
}

export const hostCollector: Collector<Host> = {
  artifact: A,
  requests(_raw, ctx: GatherContext): RawRequest[] {
    const common: RawRequest[] = [
      { file: 'uname.txt', commands: [cmd('uname', '-a')] },
      { file: 'zfs-version.txt', commands: [cmd('zfs', 'version'), cmd('zfs', '-V')] },
    ];
    if (ctx.platform === 'linux') {
      return [...common,
        { file: 'os-release.txt', readPath: '/etc/os-release' },
        { file: 'truenas-version.txt', readPath: '/etc/version' },
        { file: 'pveversion.txt', commands: [cmd('pveversion')] },
        { file: 'meminfo.txt', readPath: '/proc/meminfo' }];
    }
    if (ctx.platform === 'freebsd') {
      return [...common,
        { file: 'truenas-version.txt', readPath: '/etc/version' },
        { file: 'physmem.txt', commands: [cmd('sysctl', '-n', 'hw.physmem')] }];
    }
    return common;
  },
  build(raw) {
    const gaps = [];
    const unameOut = raw['uname.txt'];
    const uname = usable(unameOut) ? unameOut.text.trim() : '';
    if (!uname) gaps.push(missingGap(A, 'uname.txt', unameOut, 'platform and hostname unknown', 'warning'));
    const p = platformFromUname(uname);
    const platform: Host['platform'] = p === 'unknown' ? (/^darwin/i.test(uname) ? 'darwin' : 'unknown') : p;
    const fields = uname.split(/\s+/);

    let zfs: ZfsVersion = { userland: null, kernel: null, openzfs: null, flavour: 'unknown' };
    const zv = raw['zfs-version.txt'];
    if (usable(zv) && zv.text.trim() !== '') {
      const r = parseZfsVersion(zv.text);
      if (r.ok) { zfs = r.value; gaps.push(...issueGaps(A, 'zfs-version.txt', r.issues, 'info')); }
      else gaps.push(gap(A, 'zfs-version.txt', `unreadable zfs version: ${r.error.message}`, 'warning', r.error.line));
    }
    if (zfs.flavour === 'unknown' && looksLikeZfsFuse(raw)) {
      zfs = { userland: 'zfs-fuse', kernel: null, openzfs: null, flavour: 'zfs-fuse' };
      gaps.push(gap(A, 'zfs-version.txt', 'zfs-fuse prints no version (recognised by its ` scrub:` status line): ZFS version unknown', 'info'));
    } else if (zfs.flavour === 'unknown') {
      gaps.push(missingGap(A, 'zfs-version.txt', zv, 'OpenZFS version unknown (version-dependent advice is hedged)', 'warning'));
    }

    let memoryBytes: number | null = null;
    const mem = /^MemTotal:\s+(\d+)\s*kB/m.exec(raw['meminfo.txt']?.text ?? '');
    if (mem) memoryBytes = Number(mem[1]) * 1024;
    else if (usable(raw['physmem.txt']) && /^\d+$/.test(raw['physmem.txt'].text.trim())) memoryBytes = Number(raw['physmem.txt'].text.trim());

    const host: Host = {
      hostname: fields[1] ?? null,
      platform,
      ...distribution(raw, platform, uname),
      kernel: fields[2] ?? null,
      zfs,
      memoryBytes,
    };
    return { value: host, gaps };
  },
};
