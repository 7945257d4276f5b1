/**
 * smartctl's exit status is a bitmask, not an error code (smartctl(8), EXIT STATUS). Exit 4 on a
 * MegaRAID pass-through or exit 64 on a healthy SSD are normal; only some bits mean the data is
 * missing and only bit 3 means the disk itself says it is failing. Decoded bit by bit.
 */
export interface SmartctlExitStatus {
  code: number;
  /** bit 0: command line did not parse. */
  commandLineError: boolean;
  /** bit 1: device open failed, or the device did not answer IDENTIFY (or is in low-power mode). */
  deviceOpenFailed: boolean;
  /** bit 2: some SMART or ATA command failed, or a checksum error in a SMART data structure. */
  commandFailed: boolean;
  /** bit 3: SMART status check returned "DISK FAILING". */
  diskFailing: boolean;
  /** bit 4: prefail attributes at or below threshold. */
  prefailAttributesBelowThreshold: boolean;
  /** bit 5: SMART status OK, but usage/prefail attributes were at or below threshold in the past. */
  attributesBelowThresholdInPast: boolean;
  /** bit 6: the device error log contains records of errors. */
  errorLogHasErrors: boolean;
  /** bit 7: the self-test log contains records of errors (failed self-tests). */
  selfTestLogHasErrors: boolean;
  /** Bits 0 and 1: nothing trustworthy was read at all. */
  noData: boolean;
  /** One short phrase per set bit, in bit order, for evidence text. */
  messages: string[];
}

const BIT_MESSAGES = [
  'command line did not parse',
  'device open failed',
  'a SMART or ATA command failed (or checksum error)',
  'SMART status: DISK FAILING',
  'prefail attributes at or below threshold',
  'attributes were at or below threshold in the past',
  'device error log contains errors',
  'self-test log contains errors',
] as const;

export function decodeSmartctlExit(code: number): SmartctlExitStatus {
  // Only the low 8 bits exist; a shell-reported 256+ or a negative value is not a smartctl status.
  const c = Number.isInteger(code) && code >= 0 ? code & 0xff : 0;
  const bit = (i: number) => (c & (1 << i)) !== 0;
  return {
    code: c,
    commandLineError: bit(0),
    deviceOpenFailed: bit(1),
    commandFailed: bit(2),
    diskFailing: bit(3),
    prefailAttributesBelowThreshold: bit(4),
    attributesBelowThresholdInPast: bit(5),
    errorLogHasErrors: bit(6),
    selfTestLogHasErrors: bit(7),
    noData: bit(0) || bit(1),
    messages: BIT_MESSAGES.filter((_, i) => bit(i)),
  };
}
