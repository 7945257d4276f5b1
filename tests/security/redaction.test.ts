/**
 * Redaction of the cases a reviewer found leaking: a serial in another letter case or spelling
 * than the drive reports, the domain of an FQDN whose host was learned alone, and e-mail
 * addresses in user properties. The serial and host are learned from the outputs that name them
 * (smartctl JSON, a hostname field), as in a real capture.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../server/src/redact/redactor.ts';

describe('redaction: the cases that leaked', () => {
  it('a serial in any letter case and separator spelling', () => {
    const r = createRedactor();
    r.learnText('{"device":{"name":"/dev/sda"},"serial_number":"WQ-SECRETSN42"}', 'smartctl-sda.json');
    const out = r.redactText('zpool: ata-WDC_X_wq-secretsn42 / Wq-SecretSn42 / WQSECRETSN42 / wq_secretsn42 / "WQ SECRETSN42" / WQ.SECRETSN42');
    expect(out.toLowerCase()).not.toMatch(/secret\s*[-_. ]?sn42/);
    expect(out.match(/SERIAL-1/g)).toHaveLength(6); // one drive, one token
  });

  it('a WWN in upper and lower case and with its prefixes', () => {
    const r = createRedactor();
    r.learnText('{"wwn":"0x5000C500A496983D"}', 'lsblk.json');
    const out = r.redactText('wwn-0x5000c500a496983d naa.5000C500A496983D 5000c500a496983d');
    expect(out.toLowerCase()).not.toContain('5000c500a496983d');
  });

  it('the whole FQDN: the domain goes even when only the short host name was learned', () => {
    const r = createRedactor();
    r.learnText('{"hostname":"nas"}', 'system-info.json');
    const out = r.redactText('served by nas.corp.example, also NAS.Corp.Example and nas.lan');
    expect(out).not.toMatch(/corp|example|\.lan/i);
    expect(out).toBe('served by HOST-1.DOMAIN-1, also HOST-1.DOMAIN-1 and HOST-1.DOMAIN-2');
  });

  it('e-mail addresses in any property value', () => {
    const r = createRedactor();
    const zfsGet = 'tank/home  com.example:owner  alice.smith+nas@corp.example  local\ntank/home  org.zfsbootmenu:contact  Ops@Example.ORG  local\n';
    const out = r.redactText(zfsGet);
    expect(out).not.toMatch(/alice|corp\.example|example\.org/i);
    expect(out).toContain('com.example:owner  EMAIL-1  local'); // the property's name is not an address: kept
    expect(out).toContain('EMAIL-2');
  });
});
