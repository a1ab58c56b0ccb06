import { describe, expect, it } from 'vitest';
import { hopStatus, latencyCellText, latencyColourClass, lossPercent, packetLossBarFraction } from './hopStatus';
import { HopStatus } from './constants';
import { LatencyCode } from '../../../../server/contract/latency';

describe('hopStatus', () => {
  it('is 2 at or above Bad, 1 at or above Warn, 0 below', () => {
    expect(hopStatus(250, 100, 250)).toBe(HopStatus.Bad);
    expect(hopStatus(400, 100, 250)).toBe(2);
    expect(hopStatus(100, 100, 250)).toBe(1);
    expect(hopStatus(249.9, 100, 250)).toBe(1);
    expect(hopStatus(99.9, 100, 250)).toBe(0);
    expect(hopStatus(0, 100, 250)).toBe(0);
  });
  it('is -1 with no data', () => {
    for (const v of [null, undefined, NaN, LatencyCode.Timeout, LatencyCode.Pending]) expect(hopStatus(v, 100, 250)).toBe(-1);
  });
});

describe('latencyColourClass', () => {
  it('Good below Warn, Warn below Bad, otherwise Bad', () => {
    expect(latencyColourClass(99, 100, 250)).toBe('Good');
    expect(latencyColourClass(100, 100, 250)).toBe('Warn');
    expect(latencyColourClass(250, 100, 250)).toBe('Bad');
    expect(latencyColourClass(LatencyCode.Timeout, 100, 250)).toBeNull();
  });
});

describe('packet loss', () => {
  it('loss percent is lost / count x 100', () => {
    expect(lossPercent(3, 12)).toBe(25);
    expect(lossPercent(0, 0)).toBe(0);
  });
  it('the bar is full at 30%', () => {
    expect(packetLossBarFraction(0)).toBe(0);
    expect(packetLossBarFraction(15)).toBe(0.5);
    expect(packetLossBarFraction(30)).toBe(1);
    expect(packetLossBarFraction(100)).toBe(1);
    expect(packetLossBarFraction(NaN)).toBe(0);
  });
});

describe('latencyCellText', () => {
  it('shows values, "*" for timeouts and N/A or ? for the other codes', () => {
    expect(latencyCellText(12.345)).toBe('12.3');
    expect(latencyCellText(12.345, 0)).toBe('12');
    expect(latencyCellText(0.0734)).toBe('0.07');
    expect(latencyCellText(LatencyCode.Timeout)).toBe('*');
    expect(latencyCellText(LatencyCode.Pending)).toBe('?');
    expect(latencyCellText(LatencyCode.NotParticipating)).toBe('N/A');
    expect(latencyCellText(LatencyCode.StopStart)).toBe('N/A');
    expect(latencyCellText(null)).toBe('');
  });
});
