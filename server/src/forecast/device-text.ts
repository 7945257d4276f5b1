/**
 * A device class from the model text alone, for a device the catalog has no entry for: what a
 * person types ("Lexar 2TB NVMe M.2 2280 PCIe Gen4") or what smartctl/lsblk report ("QEMU
 * HARDDISK", "LIO-ORG TrueNAS iSCSI Disk", "VMware Virtual disk"). It reads the interface (NVMe,
 * SATA, SAS), the PCIe generation, known consumer and data-centre families, and whether the
 * device is a virtual disk or a LUN.
 *
 * Why virtual disks and LUNs are a class of their own: a flush to one goes through a hypervisor or
 * a network to storage this host cannot see. Linux reports most of them as rotational (LIO and
 * virtio do by default), so the media flag would call them hard disks, which they need not be: a
 * LUN with a write-back cache flushes in a fraction of a hard disk's time, a virtio disk on local
 * NVMe faster still. Their latency is unknown until measured, and the forecast says so.
 *
 * Pure; the catalog (catalog.ts) falls back to this where no entry matches. The rules' own drive
 * classification (rules/lib/device-class.ts) does not read it yet.
 */
import type { Drive } from '../model/inventory.ts';

/** The catalog's device classes (catalog.ts DEVICE_CLASSES) a model text can name; kept here so the catalog imports this file, not the reverse. */
export type TextClassId = 'plp-nvme' | 'plp-sata' | 'consumer-nvme' | 'consumer-nvme-dramless' | 'consumer-sata' | 'qlc-sata' | 'hdd' | 'virtual';

export interface TextClass {
  cls: TextClassId;
  /** One sentence: what in the text decided it. */
  why: string;
  interface: 'nvme' | 'sata' | 'sas' | 'virtual' | null;
  /** PCIe generation when the text names it ("PCIe Gen4", "PCIe 4.0"). */
  pcieGen: number | null;
  /** The family that decided the class, when one did. */
  family: string | null;
}

const norm = (t: string): string => t.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toUpperCase();

/**
 * Virtual disks and LUNs by the vendor/product strings their targets and hypervisors report
 * (SCSI INQUIRY vendor + product as smartctl and lsblk show them). Each names what it stands for.
 */
const VIRTUAL: ReadonlyArray<{ re: RegExp; what: string }> = [
  { re: /\bQEMU\b/, what: 'a QEMU/KVM virtual disk' },
  { re: /\bVBOX\b|VIRTUALBOX/, what: 'a VirtualBox virtual disk' },
  { re: /\bVMWARE\b/, what: 'a VMware virtual disk' },
  { re: /\bMSFT\b|MICROSOFT VIRTUAL|HYPER-?V/, what: 'a Hyper-V virtual disk' },
  { re: /\bXEN(SOURCE|SRC)?\b|XENVBD|\bPVDISK\b/, what: 'a Xen virtual disk' },
  { re: /\bVIRTIO\b/, what: 'a virtio disk' },
  { re: /\bLIO-ORG\b/, what: 'a Linux LIO iSCSI/FC LUN' },
  { re: /\bISCSI\b/, what: 'an iSCSI LUN' },
  { re: /\bSCST[ _](FIO|BIO|VDISK)|\bIET\b/, what: 'a SCST/IET iSCSI LUN' },
  { re: /\b(TRUENAS|FREENAS)\b/, what: 'a TrueNAS/FreeNAS LUN' },
  { re: /\bNETAPP\b|\bLUN\b/, what: 'a SAN LUN' },
  { re: /\b3PARDATA\b|FLASHARRAY|\bCOMPELNT\b|\bNIMBLE\b|\bDGC\b/, what: 'a storage-array LUN' },
  { re: /AMAZON ELASTIC BLOCK STORE|\bPERSISTENTDISK\b|\bNUTANIX\b/, what: 'a cloud block volume' },
  { re: /\bVIRTUAL[ -]?DIS[KC]\b|\bVDISK\b/, what: 'a virtual disk' },
];

/** Data-centre NVMe families with capacitor-backed power-loss protection (no catalog entry of their own). */
const PLP_NVME: ReadonlyArray<{ re: RegExp; family: string }> = [
  { re: /\bPM9[89]3A?\b|\bPM17[23][35]A?\b|\bPM9D3A?\b|\bMZ(QL|WL|PL|1L)[A-Z0-9]/, family: 'Samsung PM983/PM9A3/PM1733 (data-centre)' },
  { re: /\bKIOXIA\b.*\b(CD[5-8]|CM[5-7])\b|\bKCD[5-8]|\bKCM[5-7]/, family: 'Kioxia CD/CM (data-centre)' },
  { re: /\bMICRON\b.*\b(7[3-5]00|9[1-5]00|6500)\b|\bMTFDK/, family: 'Micron data-centre NVMe' },
  { re: /\bD[357]-P\d{4}\b|\bP4[56]\d0\b|\bP5[3-8]\d0\b/, family: 'Intel/Solidigm data-centre NVMe' },
  { re: /\bSN[56]\d0\b.*\b(ULTRASTAR|DC)\b|\bULTRASTAR DC SN/, family: 'WD Ultrastar DC NVMe' },
  { re: /\bDC1500M\b|\bDC2000B\b|\bDC3000ME\b/, family: 'Kingston DC NVMe' },
];

/** Data-centre SATA/SAS SSD families with power-loss protection (no catalog entry of their own). */
const PLP_SATA: ReadonlyArray<{ re: RegExp; family: string }> = [
  { re: /\bMICRON 5[1-4]00\b|\bMTFDDA[KV]/, family: 'Micron 5100-5400 (data-centre SATA)' },
  { re: /\bS4[56][12]0\b|\bD3-S4/, family: 'Intel/Solidigm D3-S4510-S4620' },
  { re: /\bPM8[89]3\b|\bSM88[13]\b|\bPM1643A?\b|\bPM1653\b/, family: 'Samsung PM883/PM893/SM883/PM1643 (data-centre)' },
  { re: /\bDC[56]00M\b|\bDC500R\b/, family: 'Kingston DC500/DC600' },
];

/** Consumer NVMe families without DRAM (host memory buffer) or with QLC NAND (product reviews; none of them has PLP). */
const DRAMLESS_NVME: ReadonlyArray<{ re: RegExp; family: string }> = [
  { re: /\bSN5[5-8]0\b|\bSN770\b/, family: 'WD Blue SN550/SN570/SN580 or WD Black SN770 (DRAM-less)' },
  { re: /\bNM(610|620|790)\b/, family: 'Lexar NM610/NM620/NM790 (DRAM-less)' },
  { re: /\b990 EVO\b/, family: 'Samsung 990 EVO (DRAM-less)' },
  { re: /\bCRUCIAL P[123]\b|\bP3 PLUS\b/, family: 'Crucial P1/P2/P3 (DRAM-less or QLC)' },
  { re: /\bMP33\b|\bMP44L\b|\bNV[123]\b|\bP41 PLUS\b/, family: 'budget NVMe (DRAM-less)' },
  { re: /\bQLC\b|\bQVO\b|\b6[67]0P\b/, family: 'QLC NVMe' },
];

/** Consumer NVMe families with DRAM, without PLP. */
const CONSUMER_NVME: ReadonlyArray<{ re: RegExp; family: string }> = [
  { re: /\bSN(750|850X?|8100)\b|\bSN700\b/, family: 'WD Black SN750/SN850/SN8100 or WD Red SN700' },
  { re: /\b9[6-9]0 PRO\b|\b970 EVO\b/, family: 'Samsung 960-990 PRO or 970 EVO' },
  { re: /\bKC3000\b|\bFURY RENEGADE\b|\bKC2500\b/, family: 'Kingston KC2500/KC3000/Fury Renegade' },
  { re: /\bFIRECUDA\b|\bROCKET 4\b|\bP41 PLATINUM\b|\bPLATINUM P41\b|\bP31 GOLD\b|\bMP600\b|\bMP700\b|\bSX8200\b|\bT700\b/, family: 'a consumer NVMe family with DRAM' },
];

const pcieGenOf = (m: string): number | null => {
  const g = /PCIE\s*(?:GEN\s*)?([1-6])(?:\.0)?\b|\bGEN\s*([1-6])\b/.exec(m);
  return g ? Number(g[1] ?? g[2]) : null;
};

const PLP_WORDS = /\bPLP\b|POWER[ -]?LOSS|\bENTERPRISE\b|\bDATA ?CENT(ER|RE)\b|\bDC\b|\bU\.2\b|\bU\.3\b|\bE[13]\.[SL]\b|\b22110\b/;

/** The class the model text names, or null when it names nothing this reads. */
export function classifyModelText(text: string | null | undefined): TextClass | null {
  if (!text) return null;
  const m = norm(text);
  const quoted = `"${text.trim()}"`;
  const v = VIRTUAL.find((x) => x.re.test(m));
  if (v) return { cls: 'virtual', why: `${quoted} is ${v.what}: its sync-write latency is that of storage this host cannot see, unknown until measured`, interface: 'virtual', pcieGen: null, family: null };
  const gen = pcieGenOf(m);
  const nvmeFamily = [...PLP_NVME, ...DRAMLESS_NVME, ...CONSUMER_NVME].some((x) => x.re.test(m)) && !/\bSATA\b/.test(m);
  const nvme = /\bNVME\b|\bM\.2\b|\b22(30|42|80)\b|\bPCIE\b|\bGEN ?[3-6]\b/.test(m) || gen !== null || nvmeFamily;
  const sas = /\bSAS\b|\b12 ?GB\/?S\b/.test(m);
  const sata = /\bSATA\b|\b2\.5["” ]|\bMSATA\b|\b6 ?GB\/?S\b/.test(m);
  const ssd = nvme || /\bSSD\b|\bSOLID STATE\b|\bFLASH\b/.test(m);
  const genText = gen !== null ? `, PCIe Gen${gen}` : '';
  const dcSata = PLP_SATA.find((x) => x.re.test(m));
  if (dcSata && !nvme) return { cls: 'plp-sata', why: `${quoted} is ${dcSata.family}, a data-centre SSD family with power-loss protection`, interface: sas ? 'sas' : 'sata', pcieGen: null, family: dcSata.family };
  if (/\bHDD\b|\bRPM\b|\bHARD (DISK|DRIVE)\b/.test(m) && !ssd) return { cls: 'hdd', why: `${quoted} reads as a hard disk`, interface: sas ? 'sas' : sata ? 'sata' : null, pcieGen: null, family: null };
  if (nvme) {
    const dc = PLP_NVME.find((x) => x.re.test(m));
    if (dc) return { cls: 'plp-nvme', why: `${quoted} is ${dc.family}, a data-centre NVMe family with power-loss protection`, interface: 'nvme', pcieGen: gen, family: dc.family };
    if (PLP_WORDS.test(m)) return { cls: 'plp-nvme', why: `${quoted} names an enterprise NVMe drive (power-loss protection or a data-centre form factor)${genText}`, interface: 'nvme', pcieGen: gen, family: null };
    const cheap = DRAMLESS_NVME.find((x) => x.re.test(m));
    if (cheap) return { cls: 'consumer-nvme-dramless', why: `${quoted} is ${cheap.family}${genText}`, interface: 'nvme', pcieGen: gen, family: cheap.family };
    const fam = CONSUMER_NVME.find((x) => x.re.test(m));
    if (fam) return { cls: 'consumer-nvme', why: `${quoted} is ${fam.family}, a consumer NVMe drive without power-loss protection${genText}`, interface: 'nvme', pcieGen: gen, family: fam.family };
    return { cls: 'consumer-nvme', why: `${quoted} reads as an NVMe SSD${genText} that names no power-loss protection: assumed consumer-grade (a flush waits for its volatile cache), possibly without DRAM`, interface: 'nvme', pcieGen: gen, family: null };
  }
  if (ssd || sas || sata) {
    if (!ssd) return null; // "SATA" or "SAS" alone says nothing about the media
    if (/\bQLC\b|\bQVO\b/.test(m)) return { cls: 'qlc-sata', why: `${quoted} names QLC`, interface: sas ? 'sas' : 'sata', pcieGen: null, family: null };
    const dc = PLP_SATA.find((x) => x.re.test(m));
    if (dc) return { cls: 'plp-sata', why: `${quoted} is ${dc.family}, a data-centre SSD family with power-loss protection`, interface: sas ? 'sas' : 'sata', pcieGen: null, family: dc.family };
    if (PLP_WORDS.test(m) || sas) return { cls: 'plp-sata', why: `${quoted} names an enterprise ${sas ? 'SAS' : 'SATA'} SSD`, interface: sas ? 'sas' : 'sata', pcieGen: null, family: null };
    return { cls: 'consumer-sata', why: `${quoted} reads as a SATA SSD that names no power-loss protection: assumed consumer-grade`, interface: 'sata', pcieGen: null, family: null };
  }
  return null;
}

/**
 * A drive of the inventory that is a virtual disk or LUN, by its model text, or a virtio or Xen
 * block device (/dev/vdX, /dev/xvdX: lsblk's virtual transport) that calls itself rotational, as
 * those do by default: null when neither says so. Device-mapper and md devices share that
 * transport but stack on real disks (dm-crypt over hard disks is common), so they are not read as
 * virtual here.
 */
export function virtualDrive(d: Pick<Drive, 'model' | 'transport' | 'media' | 'rotational' | 'devPath'>): TextClass | null {
  const t = classifyModelText(d.model);
  if (t?.cls === 'virtual') return t;
  const hypervisorDisk = /\/(x?vd)[a-z]+$/.test(d.devPath ?? '');
  if (d.transport === 'virtual' && hypervisorDisk && (d.media === 'hdd' || d.media === 'unknown') && d.rotational !== false) {
    return { cls: 'virtual', why: `${d.devPath} is a ${d.devPath!.includes('/xvd') ? 'Xen' : 'virtio'} disk and reports itself rotational as such disks do: its sync-write latency is that of storage this host cannot see, unknown until measured`, interface: 'virtual', pcieGen: null, family: null };
  }
  return null;
}
