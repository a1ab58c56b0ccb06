// The alert form (issue 41 item 8): only the chosen kinds' fields shown (the others rendered
// hidden and disabled, so not sent), an alert's values filled in escaped, and an edit that
// keeps what the form does not show.
import { describe, expect, it } from 'vitest';
import { alertForm, alertFromForm, editedConfig } from './form-page.js';
import type { AlertDto } from '../contract/alerts.js';

const describe_ = () => 'an action';

/** The groups of the rendered form: which field names each holds and whether it is shown. */
function groups(markup: string): { names: string[]; shown: boolean; disabled: boolean }[] {
  return [...markup.matchAll(/<div class="alert-field"[^>]*?( hidden)?>([\s\S]*?)<\/div>/g)].map((m) => ({
    names: [...m[2].matchAll(/name="(\w+)"/g)].map((n) => n[1]),
    shown: !m[1],
    disabled: /<(input|select|textarea) disabled/.test(m[2]),
  }));
}

const evil = 'x"><script>alert(1)</script>';
const alert: AlertDto = {
  AlertID: 5,
  Name: evil,
  Condition: { Kind: 'latency', Hop: 2, Samples: 20, Statistic: 'p95', ThresholdMs: 80 },
  ConditionText: '',
  Events: ['start', 'end'],
  MinRepeatSeconds: 600,
  ForSeconds: 45,
  RecoverSeconds: 300,
  Enabled: true,
  Targets: [3],
  Actions: [{ ActionID: 9, Kind: 'webhook', Config: { Method: 'PUT', Url: `https://h.example.org/${evil}`, Format: 'custom', Template: `{"text":"</textarea>${evil}"}`, Headers: { 'X-Team': 'noc' } } }],
  Firing: [],
  Pending: 0,
  LastAnswer: '',
  LastError: '',
  LastErrorAt: null,
};

describe('the alert form', () => {
  it('shows the fields of the chosen condition and action only; the others are hidden and disabled', () => {
    const g = groups(alertForm([7], 1, undefined, describe_).text);
    const shown = g.filter((x) => x.shown).flatMap((x) => x.names);
    expect(shown).toEqual(['Hop', 'Samples', 'Lost', 'ForSeconds', 'RecoverSeconds', 'Text']);
    expect(g.filter((x) => !x.shown).every((x) => x.disabled)).toBe(true);
    expect(g.filter((x) => x.shown).some((x) => x.disabled)).toBe(false);
  });

  it('is filled with the alert being edited, every value escaped', () => {
    const text = alertForm([], 0, alert, describe_).text;
    expect(text).not.toContain('<script>');
    expect(text).not.toContain('</textarea>x');
    expect(text).toContain('value="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(text).toContain('<input type="hidden" name="AlertID" value="5">');
    expect(text).toContain('<input type="hidden" name="ActionID" value="9">');
    expect(text).toMatch(/name="ForSeconds"[^>]*value="45"/);
    expect(text).toMatch(/name="RecoverSeconds"[^>]*value="300"/);
    expect(text).toContain('<option value="p95" selected>');
    expect(groups(text).filter((x) => x.shown).flatMap((x) => x.names)).toEqual(['Hop', 'Samples', 'Statistic', 'ThresholdMs', 'ForSeconds', 'RecoverSeconds', 'Url', 'Method', 'Format', 'Template']);
  });

  it('reads For and Recover from the form; an edit keeps what the form does not show (webhook headers) and clears what it does', () => {
    const input = alertFromForm({ Name: 'n', Kind: 'loss', Hop: '0', Samples: '10', Lost: '2', Events: ['start'], ForSeconds: '30', RecoverSeconds: '0', ActionKind: 'log', Enabled: [] }, [1]);
    expect(input).toMatchObject({ ForSeconds: 30, RecoverSeconds: 0, Enabled: false, Condition: { Kind: 'loss', Lost: 2 } });
    // Fields not sent (a condition without a window): the defaults.
    expect(alertFromForm({ Name: 'n', Kind: 'agentOffline', OfflineSeconds: '60', Events: ['start'], ActionKind: 'log' }, [1])).toMatchObject({ ForSeconds: undefined, RecoverSeconds: undefined, Enabled: true });
    expect(editedConfig('webhook', alert.Actions[0].Config, { Method: 'POST', Url: 'https://new.example.org/', Format: 'slack', Template: '' })).toEqual({
      Headers: { 'X-Team': 'noc' },
      Method: 'POST',
      Url: 'https://new.example.org/',
      Format: 'slack',
      Template: '',
    });
    expect(editedConfig('email', { To: 'a@example.org', Subject: 'old' }, { To: 'b@example.org' })).toEqual({ To: 'b@example.org' });
  });
});
