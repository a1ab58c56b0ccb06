import { describe, expect, it } from 'vitest';
import type { LiveShareLink } from '../../../../server/contract/liveshare';
import { deleteConfirmation, expirationFromInput, expirationToInput, filteredHeader, sharedListCell, visibleLinks } from './links';

const link = (over: Partial<LiveShareLink>): LiveShareLink => ({
  DbId: 1,
  ShareId: 's',
  SecurePW: 'p',
  Description: 'd',
  Notes: '',
  Active: true,
  CreationDate: '2026-11-20T10:00:00Z',
  ExpirationDate: null,
  SummaryID: 'SUM-1',
  TargetID: '',
  Account: 1,
  CreatedByUser: 'admin',
  LiveShareURL: 'http://h/LiveShare/s/p',
  ...over,
});
const names = new Map([
  ['SUM-1', 'Office'],
  ['AGT-abc', 'Branch'],
]);

describe('LiveShare link rules', () => {
  it('shows the shared list with links, or the missing texts of the spec', () => {
    expect(sharedListCell('SUM-1', names)).toEqual({ text: 'Summary: Office', href: '/summary/1' });
    expect(sharedListCell('AGT-abc', names)).toEqual({ text: 'Agent: Branch', href: '/agent/abc' });
    expect(sharedListCell('SUM-9', names)).toEqual({ text: 'Summary: (missing - 9)' });
    expect(sharedListCell('AGT-zz', names)).toEqual({ text: 'Agent: (missing - zz)' });
  });

  it('names the filtered page by kind', () => {
    expect(filteredHeader('SUM-1', 'Office')).toBe('LiveShare links for Summary: Office');
    expect(filteredHeader('AGT-abc', 'Branch')).toBe('LiveShare links for Agent: Branch');
  });

  it('asks before deleting with the spec\'s title and message', () => {
    const c = deleteConfirmation(link({ Description: 'ISP' }), 'Office');
    expect(c.title).toBe('Permanently delete this LiveShare');
    expect(c.message).toBe("Are you sure you want to delete LiveShare 'ISP' url http://h/LiveShare/s/p from Office?");
  });

  it('sorts by any column, dates by time and no expiry last, and filters by column text', () => {
    const a = link({ DbId: 1, Description: 'b', CreationDate: '2026-11-21T00:00:00Z', ExpirationDate: null });
    const b = link({ DbId: 2, Description: 'A', CreationDate: '2026-11-20T00:00:00Z', ExpirationDate: '2026-12-01T00:00:00Z', SummaryID: 'AGT-abc' });
    expect(visibleLinks([a, b], { sort: { column: 'Description', descending: false }, filters: {} }, names).map((l) => l.DbId)).toEqual([2, 1]);
    expect(visibleLinks([a, b], { sort: { column: 'CreationDate', descending: true }, filters: {} }, names).map((l) => l.DbId)).toEqual([1, 2]);
    expect(visibleLinks([a, b], { sort: { column: 'ExpirationDate', descending: false }, filters: {} }, names).map((l) => l.DbId)).toEqual([2, 1]);
    expect(visibleLinks([a, b], { filters: { Shared: 'branch' } }, names).map((l) => l.DbId)).toEqual([2]);
  });

  it('reads a blank expiration as never, and round-trips a local time', () => {
    expect(expirationFromInput('')).toBeNull();
    const iso = expirationFromInput('2030-05-06T07:08')!;
    expect(expirationToInput(iso)).toBe('2030-05-06T07:08');
  });
});
