import { describe, expect, it } from 'vitest';
import { MailError } from '../mail/transport.js';
import { ActivationSubject, activationLink, activationMail, sendToOneRecipient } from './mail.js';

describe('activationLink', () => {
  it('puts the token in the fragment of the console page, under the base URL', () => {
    expect(activationLink('https://hw.example.org/', 'abc_-123')).toBe('https://hw.example.org/activate#abc_-123');
    expect(activationLink('http://10.0.0.5:8080', 'tok')).toBe('http://10.0.0.5:8080/activate#tok');
  });
});

describe('activationMail', () => {
  const facts = {
    to: 'ann@example.org',
    username: '<img src=x onerror=alert(1)>',
    sentBy: 'Bob & "Co"',
    link: 'https://hw.example.org/activate#tok',
    expiresAt: new Date(Date.UTC(2026, 10, 26, 2, 30)),
  };

  it('has a fixed subject, the link and the expiry in both parts', () => {
    const m = activationMail(facts);
    expect(m.to).toBe('ann@example.org');
    expect(m.subject).toBe(ActivationSubject);
    expect(m.text).toContain('https://hw.example.org/activate#tok');
    expect(m.text).toContain('until 2026-11-26 02:30 UTC');
    expect(m.html).toContain('href="https://hw.example.org/activate#tok"');
    expect(m.html).toContain('until 2026-11-26 02:30 UTC');
  });

  it('escapes every user-given value in the HTML', () => {
    const html = activationMail(facts).html!;
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Bob &amp; &quot;Co&quot;');
    expect(activationMail({ ...facts, link: 'https://x/activate#"><script>' }).html).toContain('href="https://x/activate#&quot;&gt;&lt;script&gt;"');
  });
});

describe('sendToOneRecipient (issue 39 item 13)', () => {
  const facts = { username: 'ann', sentBy: 'admin', link: 'https://hw.example.org/activate#tok', expiresAt: new Date(Date.UTC(2026, 10, 26)) };
  const sent: unknown[] = [];
  const sendMail = async (m: unknown) => {
    sent.push(m);
    return { response: '250 Ok', messageId: 'x' };
  };

  it('sends a mail to its one validated address', async () => {
    await sendToOneRecipient(sendMail, activationMail({ ...facts, to: 'ann@example.org' }), 'ann@example.org');
    expect(sent).toHaveLength(1);
  });

  it('refuses a list, a header, or a recipient that is not the address', async () => {
    sent.length = 0;
    for (const to of ['ann@example.org, evil@evil.example', 'ann@example.org\r\nBcc: evil@evil.example']) {
      await expect(sendToOneRecipient(sendMail, activationMail({ ...facts, to }), to)).rejects.toThrow(MailError);
      await expect(sendToOneRecipient(sendMail, activationMail({ ...facts, to }), 'ann@example.org')).rejects.toThrow(MailError);
    }
    await expect(sendToOneRecipient(sendMail, { ...activationMail({ ...facts, to: 'ann@example.org' }), to: ['ann@example.org', 'evil@evil.example'] }, 'ann@example.org')).rejects.toThrow(MailError);
    await expect(sendToOneRecipient(sendMail, activationMail({ ...facts, to: 'bob@example.org' }), 'ann@example.org')).rejects.toThrow(MailError);
    expect(sent).toEqual([]);
  });
});
