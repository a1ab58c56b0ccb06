import { describe, expect, it } from 'vitest';
import type { TargetRow } from '../../../../server/contract/targets';
import { tracedTargetFor } from './tracedTarget';

const row = (id: string, DNSName: string, IP: string, IsRunning = true) => ({ UniqueID: `${id}_h_4`, DNSName, IP, IsRunning, Columns: {} }) as unknown as TargetRow;

describe('an entry naming a target the list already traces', () => {
  const rows = [row('3', 'gw.example', '10.0.0.1'), row('4', '', '10.0.0.2', false)];
  it('finds it by name or address, any case, trimmed', () => {
    expect(tracedTargetFor(' GW.example ', rows)?.UniqueID).toBe('3_h_4');
    expect(tracedTargetFor('10.0.0.2', rows)?.UniqueID).toBe('4_h_4');
  });
  it('finds nothing for a new target or an empty entry', () => {
    expect(tracedTargetFor('10.0.0.3', rows)).toBeNull();
    expect(tracedTargetFor('  ', rows)).toBeNull();
  });
});
