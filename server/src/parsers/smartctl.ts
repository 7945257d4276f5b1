/**
 * `smartctl -a -j` (also -x / --xall) for ATA/SATA, NVMe, SCSI/SAS, USB bridges and MegaRAID
 * pass-through (`-d sat+megaraid,N`). Pure: JSON text in, a SmartctlReport out.
 *
 * Facts are taken only from the fields smartctl prints; what it does not print is null. The
 * exit status is a bitmask (see smartctl-exit.ts) and comes from the caller's exit code or from
 * `smartctl.exit_status` in the JSON (7.0+).
 */
import type { Drive, MediaType, OptaneInfo, Transport } from '../model/inventory.ts';
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { arr, at, isObject, num, parseJsonText, str, type JsonObject } from './json-fields.ts';
import { matchOptane } from './optane-match.ts';
import { decodeSmartctlExit, type SmartctlExitStatus } from './smartctl-exit.ts';

export type PlpState = 'yes' | 'no' | 'unknown';

export interface SmartctlReport {
  // --- the `zfs-advisor parse smartctl` contract ---
  model: string | null;
  serial: string | null;
  capacityBytes: number | null;
  rotational: boolean | null;
  transport: Transport;
  healthPassed: boolean | null;
  powerOnHours: number | null;
  temperatureC: number | null;
  /** NVMe percentage_used, SCSI endurance indicator, or ATA wear normalised to "% of rated life used". */
  percentageUsed: number | null;
  mediaErrors: number | null;
  optane: OptaneInfo | null;
  // --- what a Drive needs beyond the contract ---
  devicePath: string | null;
  /** smartctl's device type: sat, ata, nvme, scsi, sat+megaraid,14, usbjmicron… */
  deviceType: string | null;
  protocol: string | null;
  /** MegaRAID/other RAID pass-through target ("megaraid,14"), null when the disk is direct. */
  raidPassThrough: string | null;
  wwn: string | null;
  firmware: string | null;
  /** Rotation rate in rpm for HDDs; 0 is printed by SSDs and reported as null here. */
  rpm: number | null;
  media: MediaType;
  logicalSectorSize: number | null;
  physicalSectorSize: number | null;
  reallocatedSectors: number | null;
  pendingSectors: number | null;
  offlineUncorrectable: number | null;
  /** SCSI grown defect list length. */
  grownDefects: number | null;
  /** Where percentageUsed came from, e.g. "nvme percentage_used", "ATA 177 Wear_Leveling_Count (normalised 81)". */
  wearSource: string | null;
  powerLossProtection: PlpState;
  /** Why powerLossProtection says what it says (evidence text). */
  plpReason: string | null;
  /** NVMe critical_warning bits decoded (null for non-NVMe). */
  nvmeCriticalWarning: number | null;
  exit: SmartctlExitStatus | null;
  /** smartctl's own messages (errors and warnings), verbatim. */
  messages: string[];
}

/** What `zfs-advisor parse smartctl FILE` prints (the documented contract, nothing more). */
export interface SmartctlContract {
  model: string | null;
  serial: string | null;
  capacityBytes: number | null;
  rotational: boolean | null;
  transport: Transport;
  healthPassed: boolean | null;
  powerOnHours: number | null;
  temperatureC: number | null;
  percentageUsed: number | null;
  mediaErrors: number | null;
  optane: null | { product: string };
}

export function toSmartctlContract(r: SmartctlReport): SmartctlContract {
  return {
    model: r.model, serial: r.serial, capacityBytes: r.capacityBytes, rotational: r.rotational,
    transport: r.transport, healthPassed: r.healthPassed, powerOnHours: r.powerOnHours,
    temperatureC: r.temperatureC, percentageUsed: r.percentageUsed, mediaErrors: r.mediaErrors,
    optane: r.optane ? { product: r.optane.product } : null,
  };
}

interface AtaAttr { id: number; name: string; value: number | null; raw: number | null }

function ataAttributes(d: JsonObject): AtaAttr[] {
  return arr(at(d, 'ata_smart_attributes', 'table')).flatMap((a) => {
    const id = num(at(a, 'id'));
    const name = str(at(a, 'name'));
    if (id === null || name === null) return [];
    return [{ id, name, value: num(at(a, 'value')), raw: num(at(a, 'raw', 'value')) }];
  });
}

function modelOf(d: JsonObject): string | null {
  const direct = str(d.model_name) ?? str(d.scsi_model_name);
  if (direct) return direct.replace(/\s{2,}/g, ' ');
  const vendor = str(d.scsi_vendor) ?? str(d.vendor);
  const product = str(d.scsi_product) ?? str(d.product);
  if (vendor && product) return `${vendor} ${product}`;
  return product ?? null;
}

function transportOf(d: JsonObject): Transport {
  const type = (str(at(d, 'device', 'type')) ?? '').toLowerCase();
  const protocol = (str(at(d, 'device', 'protocol')) ?? '').toLowerCase();
  const info = (str(at(d, 'device', 'info_name')) ?? '').toLowerCase();
  if (type === 'nvme' || protocol === 'nvme') return 'nvme';
  // usbjmicron, usbsunplus, usbcypress, usbprolific, usbasm1352r …; "[USB …]" in info_name.
  if (type.startsWith('usb') || /\[usb\b/.test(info)) return 'usb';
  if (protocol === 'ata' || type === 'ata' || type === 'sat' || type.startsWith('sat+') || type.startsWith('sat,')) return 'sata';
  if (protocol === 'scsi' || type === 'scsi') {
    const tp = (str(at(d, 'scsi_transport_protocol', 'name')) ?? '').toLowerCase();
    if (tp.startsWith('sas')) return 'sas';
    // Parallel SCSI, FC, iSCSI, or a SCSI target that does not say (RAID volumes, bridges).
    return 'scsi';
  }
  return 'unknown';
}

function wwnOf(d: JsonObject): string | null {
  const naa = num(at(d, 'wwn', 'naa'));
  const oui = num(at(d, 'wwn', 'oui'));
  const id = num(at(d, 'wwn', 'id'));
  if (naa === null || oui === null || id === null) return str(d.logical_unit_id);
  // smartctl prints it as "5 0014ee 2b6e0a4a7": NAA nibble, 24-bit OUI, 36-bit vendor id.
  return `0x${naa.toString(16)}${oui.toString(16).padStart(6, '0')}${id.toString(16).padStart(9, '0')}`;
}

/** Normalises the vendor-specific ATA wear indicators to "% of rated life used". */
function ataWear(d: JsonObject, attrs: AtaAttr[]): { pct: number; source: string } | null {
  const devstat = num(at(d, 'endurance_used', 'current_percent'));
  if (devstat !== null) return { pct: devstat, source: 'ATA device statistics: Percentage Used Endurance Indicator' };
  const byName = (re: RegExp) => attrs.find((a) => re.test(a.name));
  // Attributes whose NORMALISED value counts down from 100 (% life remaining).
  for (const re of [/^Percent_Lifetime_Remain$/, /^Media_Wearout_Indicator$/, /^SSD_Life_Left$/, /^Wear_Leveling_Count$/, /^Percent_Life_Remaining$/]) {
    const a = byName(re);
    if (a && a.value !== null && a.value <= 100) {
      return { pct: Math.max(0, 100 - a.value), source: `ATA ${a.id} ${a.name} (normalised ${a.value})` };
    }
  }
  // Attributes whose RAW value is % life remaining (Silicon Motion, some Phison).
  const raw = byName(/^Remaining_Lifetime_Perc$/);
  if (raw && raw.raw !== null && raw.raw <= 100) return { pct: 100 - raw.raw, source: `ATA ${raw.id} ${raw.name} (raw ${raw.raw})` };
  return null;
}

/** Intel/Samsung/Micron/Kingston DC families OpenZFS lists as power-loss protected (zfs-facts E10). */
const PLP_MODEL_PATTERNS: [RegExp, string][] = [
  [/^INTEL SSDSC2B[ABX]/, 'Intel DC S3500/S3510/S3610/S3700/S3710 family (OpenZFS PLP list)'],
  [/^INTEL SSDPE(DMD|2MD)/, 'Intel DC P3600/P3700 family (OpenZFS PLP list)'],
  [/^SAMSUNG MZ7LM|^SAMSUNG MZ7KM|^SAMSUNG MZ7GE/, 'Samsung PM863/SM863/845DC family (OpenZFS PLP list)'],
  [/^SAMSUNG MZWLL|^SAMSUNG MZPLL/, 'Samsung PM1725/PM1725a (OpenZFS PLP list)'],
  [/^Micron_(5210|7300|7400|7450)/, 'Micron 5210/7300/7400/7450 (OpenZFS PLP list)'],
  [/^KINGSTON SEDC500|^KINGSTON DC1000B/, 'Kingston DC500/DC1000B (OpenZFS PLP list)'],
];

function plpOf(model: string | null, optane: OptaneInfo | null, criticalWarning: number | null): { state: PlpState; reason: string | null } {
  if (criticalWarning !== null && (criticalWarning & 0x10) !== 0) {
    return { state: 'no', reason: 'NVMe critical warning bit 4: volatile memory backup device has failed' };
  }
  if (optane) {
    return optane.plp === true
      ? { state: 'yes', reason: `${optane.product}: data-center Optane with power-loss protection` }
      : optane.plp === 'near'
        ? { state: 'yes', reason: `${optane.product}: 3D XPoint writes in place, no volatile DRAM write cache (OpenZFS: needs no PLP circuitry)` }
        : { state: 'no', reason: `${optane.product}: not power-loss safe` };
  }
  if (model) {
    for (const [re, reason] of PLP_MODEL_PATTERNS) if (re.test(model)) return { state: 'yes', reason };
  }
  return { state: 'unknown', reason: null };
}

function temperatureOf(d: JsonObject): number | null {
  const t = num(at(d, 'temperature', 'current'));
  // 0 °C is what smartctl prints when the device does not report (RAID volumes, some SAS).
  if (t !== null && t > 0) return t;
  const env = num(at(d, 'scsi_environmental_reports', 'temperature_1', 'current'));
  if (env !== null && env > 0) return env;
  const nv = num(at(d, 'nvme_smart_health_information_log', 'temperature'));
  return nv !== null && nv > 0 ? nv : null;
}

function uncorrectedScsi(d: JsonObject): number | null {
  const log = at(d, 'scsi_error_counter_log');
  if (!isObject(log)) return null;
  let total = 0;
  let seen = false;
  for (const k of ['read', 'write', 'verify']) {
    const n = num(at(log, k, 'total_uncorrected_errors'));
    if (n !== null) { total += n; seen = true; }
  }
  return seen ? total : null;
}

/** Builds the report from already-parsed JSON (the snapshot loader may hold it parsed). */
export function smartctlReportFromJson(d: JsonObject, exitCode?: number | null): SmartctlReport {
  const attrs = ataAttributes(d);
  const attr = (re: RegExp) => attrs.find((a) => re.test(a.name))?.raw ?? null;
  const transport = transportOf(d);
  const nvme = transport === 'nvme';
  const nvLog = at(d, 'nvme_smart_health_information_log');
  const rotationRate = num(d.rotation_rate);
  const rotational = nvme ? false : rotationRate === null ? null : rotationRate > 0;
  const media: MediaType = nvme ? 'nvme' : rotational === true ? 'hdd' : rotational === false ? 'ssd' : 'unknown';
  const model = modelOf(d);
  const optane = matchOptane(model);
  const criticalWarning = nvme ? num(at(nvLog, 'critical_warning')) : null;
  const plp = plpOf(model, optane, criticalWarning);

  let percentageUsed: number | null = null;
  let wearSource: string | null = null;
  if (nvme) {
    percentageUsed = num(at(nvLog, 'percentage_used'));
    if (percentageUsed !== null) wearSource = 'NVMe percentage_used';
  } else if (num(d.scsi_percentage_used_endurance_indicator) !== null) {
    percentageUsed = num(d.scsi_percentage_used_endurance_indicator);
    wearSource = 'SCSI percentage used endurance indicator';
  } else if (rotational !== true) {
    const w = ataWear(d, attrs);
    if (w) { percentageUsed = w.pct; wearSource = w.source; }
  }

  const jsonExit = num(at(d, 'smartctl', 'exit_status'));
  const code = exitCode ?? jsonExit;
  const type = str(at(d, 'device', 'type'));
  const raid = type && /megaraid|3ware|areca|aacraid|cciss|hpt/.test(type) ? type.replace(/^sat\+/, '') : null;
  const messages = arr(at(d, 'smartctl', 'messages')).flatMap((m) => {
    const s = str(at(m, 'string'));
    return s ? [s] : [];
  });

  return {
    model,
    serial: str(d.serial_number),
    capacityBytes: num(at(d, 'user_capacity', 'bytes')) ?? num(d.nvme_total_capacity) ?? num(at(d, 'nvme_namespaces', 0, 'size', 'bytes')),
    rotational,
    transport,
    healthPassed: typeof at(d, 'smart_status', 'passed') === 'boolean' ? (at(d, 'smart_status', 'passed') as boolean) : null,
    powerOnHours: num(at(d, 'power_on_time', 'hours')) ?? (nvme ? num(at(nvLog, 'power_on_hours')) : null),
    temperatureC: temperatureOf(d),
    percentageUsed,
    mediaErrors: nvme ? num(at(nvLog, 'media_errors')) : transport === 'sas' || transport === 'scsi' ? uncorrectedScsi(d) : attr(/^(Reported_Uncorrect|Uncorrectable_Error_Cnt)$/),
    optane,
    devicePath: str(at(d, 'device', 'name')),
    deviceType: type,
    protocol: str(at(d, 'device', 'protocol')),
    raidPassThrough: raid,
    wwn: wwnOf(d),
    firmware: str(d.firmware_version) ?? str(d.revision) ?? str(d.scsi_revision),
    rpm: rotationRate !== null && rotationRate > 0 ? rotationRate : null,
    media,
    logicalSectorSize: num(d.logical_block_size) ?? num(at(d, 'nvme_namespaces', 0, 'formatted_lba_size')),
    physicalSectorSize: num(d.physical_block_size),
    reallocatedSectors: attr(/^Reallocated_Sector_Ct$/),
    pendingSectors: attr(/^Current_Pending_Sector$/),
    offlineUncorrectable: attr(/^Offline_Uncorrectable$/),
    grownDefects: num(d.scsi_grown_defect_list),
    wearSource,
    powerLossProtection: plp.state,
    plpReason: plp.reason,
    nvmeCriticalWarning: criticalWarning,
    exit: code === null || code === undefined ? null : decodeSmartctlExit(code),
    messages,
  };
}

/**
 * Parses `smartctl -a -j` output. `exitCode` is the process exit status when the caller ran
 * smartctl itself; otherwise `smartctl.exit_status` from the JSON is used.
 */
export function parseSmartctl(jsonText: string, exitCode?: number | null): ParseOutcome<SmartctlReport> {
  const j = parseJsonText(jsonText);
  if (!j.ok) return j;
  if (!isObject(j.value)) return failed('smartctl JSON is not an object');
  const d = j.value;
  const issues: ParseIssue[] = [];
  const report = smartctlReportFromJson(d, exitCode);
  if (report.exit?.noData || (!report.model && !report.serial)) {
    const why = report.messages.find((m) => m.trim() !== '') ?? report.exit?.messages.join('; ') ?? 'no device identity in output';
    if (!report.model && !report.serial) return failed(`smartctl could not read the device: ${why}`, null, issues);
    issues.push({ line: null, message: `smartctl: ${why}` });
  }
  if (report.healthPassed === null) issues.push({ line: null, message: 'no SMART overall-health result in output' });
  return parsed(report, issues);
}

/** Stable identity across runs: WWN, else model+serial, else the device path. */
export function driveIdOf(r: { wwn: string | null; model: string | null; serial: string | null; devicePath: string | null }): string {
  if (r.wwn) return `wwn:${r.wwn.toLowerCase()}`;
  if (r.model && r.serial) return `ms:${r.model.replace(/\s+/g, '_')}:${r.serial}`;
  return `path:${r.devicePath ?? 'unknown'}`;
}

/** A Drive from smartctl alone; the inventory builder merges lsblk/nvme facts into it. */
export function driveFromSmartctl(r: SmartctlReport, devPath: string | null = r.devicePath): Drive {
  return {
    id: driveIdOf({ ...r, devicePath: devPath }),
    devPath,
    aliases: devPath ? [devPath] : [],
    byIdPath: null,
    model: r.model,
    serial: r.serial,
    wwn: r.wwn,
    firmware: r.firmware,
    sizeBytes: r.capacityBytes,
    rotational: r.rotational,
    rpm: r.rpm,
    media: r.media,
    transport: r.transport,
    logicalSectorSize: r.logicalSectorSize,
    physicalSectorSize: r.physicalSectorSize,
    optane: r.optane,
    powerLossProtection: r.powerLossProtection,
    smartPassed: r.healthPassed,
    wearPct: r.percentageUsed,
    temperatureC: r.temperatureC,
    powerOnHours: r.powerOnHours,
    mediaErrors: r.mediaErrors,
    reallocatedSectors: r.reallocatedSectors,
    pendingSectors: r.pendingSectors,
    sources: ['smartctl'],
  };
}
