import { describe, expect, it } from 'vitest';
import { mailStatus, senderText } from './mailStatus';

describe('support ticket mail status', () => {
  it('says where a ticket went, or why not', () => {
    expect(mailStatus(null)).toEqual({ text: 'No mail recorded', ok: false });
    expect(mailStatus({ To: 'ops@example.org', Problem: '', Time: '2026-11-29T00:00:00Z' })).toEqual({ text: 'Mailed to ops@example.org', ok: true });
    expect(mailStatus({ To: '', Problem: 'No support e-mail address is set.', Time: '2026-11-29T00:00:00Z' })).toEqual({ text: 'Not mailed: No support e-mail address is set.', ok: false });
  });
  it('names the sender by what the dialog gave, then the user', () => {
    expect(senderText({ Name: 'Ann', EmailAddress: 'ann@example.org', UserName: 'admin' })).toBe('Ann <ann@example.org> (user admin)');
    expect(senderText({ Name: '', EmailAddress: '', UserName: 'bob' })).toBe('bob');
  });
});
