import { describe, expect, it } from 'vitest';
import { engineTypeWarning, inputWidthPx, packetSizeFor, packetTypeOf, parsePort, parseTimeoutMs, scaleChoice, typeFields, udpRangeProblem, fieldsUnusedBy } from './engineRules';

describe('engine pane rules', () => {
  it('sets packet size 40 for a type whose name contains tcp, otherwise 56', () => {
    expect(packetSizeFor('TCP')).toBe(40);
    expect(packetSizeFor('tcp-syn')).toBe(40);
    expect(packetSizeFor('ICMP')).toBe(56);
    expect(packetSizeFor('UDP')).toBe(56);
  });

  it('takes a TCP port only when numeric and 1-65535', () => {
    expect(parsePort('443')).toBe(443);
    expect(parsePort(' 80 ')).toBe(80);
    for (const t of ['0', '65536', 'https', '44.3', '', '-1']) expect(parsePort(t), t).toBeNull();
    expect(parsePort('65535')).toBe(65535);
  });

  it('takes a timeout only as an integer of ms', () => {
    expect(parseTimeoutMs('2000')).toBe(2000);
    expect(parseTimeoutMs('2.5')).toBeNull();
    expect(parseTimeoutMs('2s')).toBeNull();
    expect(parseTimeoutMs('0')).toBeNull();
  });

  it('checks the UDP beginning and ending ports', () => {
    expect(udpRangeProblem(33434, 33534)).toBeUndefined();
    expect(udpRangeProblem(33434, 33434)).toBeUndefined();
    expect(udpRangeProblem(40000, 39000)).toMatch(/not be below/);
    expect(udpRangeProblem(0, 10)).toMatch(/beginning port/);
    expect(udpRangeProblem(10, 70000)).toMatch(/ending port/);
  });

  it('warns while a changed packet type other than ICMP is unsaved, and shows its fields only once saved', () => {
    expect(engineTypeWarning('TCP', 'ICMP')).toBe(true);
    expect(engineTypeWarning('ICMP', 'TCP')).toBe(false);
    expect(engineTypeWarning('UDP', 'UDP')).toBe(false);
    expect(typeFields('TCP')).toEqual(['TcpPort']);
    expect(typeFields('UDP')).toEqual(['UdpBeginPort', 'UdpEndPort']);
    expect(typeFields('ICMP')).toEqual([]);
    expect(typeFields('Remote server')).toEqual(['RemoteServerAddress', 'RemoteServerUserName', 'RemoteServerPassword']);
    expect(fieldsUnusedBy('Remote server')).toContain('PacketSize');
    expect(fieldsUnusedBy('TCP')).toEqual([]);
  });

  it('names an engine type without an editor', () => {
    const types = [{ ID: 'ptICMP', Name: 'ICMP', GenericPacketType: 0, RequiredLicenseMode: 1 }];
    expect(packetTypeOf(types, 'ICMP')).toEqual(types[0]);
    expect(packetTypeOf(types, 'ptTraceViaRemoteServer')).toBe('No editor for engine type: ptTraceViaRemoteServer');
  });

  it('sizes text inputs MaxChars x 10 px and reads graph scale choices', () => {
    expect(inputWidthPx(50)).toBe(500);
    expect(inputWidthPx(null)).toBeUndefined();
    expect([0, -2, 100, 250, 37].map(scaleChoice)).toEqual(['auto', 'follow', 'fixed100', 'custom', 'custom']);
  });
});
