import { describe, expect, it } from 'vitest';
import { ActivationSubject, activationLink, activationMail } from './mail.js';

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
