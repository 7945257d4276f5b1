/**
 * Network addresses recognised by shape: IPv4, IPv6 (full and `::`-compressed) and MAC
 * addresses. Loopback, unspecified and broadcast values identify nobody and are kept, so that
 * `127.0.0.1` in a report still reads as what it is.
 */

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Not part of a longer dotted number (a version such as 1.2.3.4.5). */
export const IPV4_RE = new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?![\\d]|\\.\\d)`, 'g');

const H = '[0-9A-Fa-f]{1,4}';
/**
 * Eight groups, or a `::` with groups on either side; never inside a longer word or a time of
 * day (`11:16:03` has no `::` and only three groups). An IPv4 tail (`::ffff:10.0.0.1`) is left
 * to IPV4_RE.
 */
export const IPV6_RE = new RegExp(
  `(?<![0-9A-Za-z_:.])(?:(?:${H}:){7}${H}|(?:${H}(?::${H}){0,6})?::(?:${H}(?::${H}){0,6})?)(?![0-9A-Za-z_:])`,
  'g',
);

export const MAC_RE = /(?<![0-9A-Za-z_:-])[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4}(?![0-9A-Za-z_:-])/g;

export const keepIpv4 = (ip: string): boolean => ip.startsWith('127.') || ip === '0.0.0.0' || ip === '255.255.255.255' || /^255\.255\./.test(ip);
/** `::`, `::1` and a bare `::` inside prose (`std::` style) are no addresses worth hiding. */
export const keepIpv6 = (ip: string): boolean => ip === '::' || ip === '::1' || ip.replace(/:/g, '').length < 3;
export const keepMac = (mac: string): boolean => /^(?:00[:-]){5}00$/.test(mac) || /^(?:ff[:-]){5}ff$/i.test(mac);
