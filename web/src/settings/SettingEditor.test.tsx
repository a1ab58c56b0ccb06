// A text setting's editor as rendered: MaxChars sizes the input (spec 2 section 5: "text inputs
// are sized by MaxChars x 10 px"), it does not cap what can be typed. It did: the Public URL
// (MaxChars 50, the server takes 500) and a configuration's Description (50, the server takes
// 200) stopped typing at 50 characters. The server's validation is what limits the value.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NodeValueType, type Trait } from '../../../server/contract/settings';
import { SettingEditor } from './SettingEditor';

const trait = (maxChars: number): Trait =>
  ({
    Name: 'PublicUrl',
    Type: NodeValueType.String,
    Setting: 'ClientSettings.General.PublicUrl',
    Label: 'Public URL',
    Hint: '',
    Validation: 'an http:// or https:// URL, or empty',
    Content: '',
    Attributes: { MaxChars: maxChars, ID: null, Items: [] },
  }) as unknown as Trait;

function input(maxChars: number): string {
  const html = renderToStaticMarkup(
    <SettingEditor trait={trait(maxChars)} value="https://hopwatch.example.org" changed={false} onChange={() => {}} packetTypes={[]} interfaces={[]} />,
  );
  return html.match(/<input[^>]*>/)?.[0] ?? '';
}

describe('SettingEditor, a text setting', () => {
  it('is MaxChars x 10 px wide', () => {
    expect(input(50)).toContain('width:500px');
  });
  it('takes more characters than MaxChars (the server validates the length)', () => {
    expect(input(50)).not.toMatch(/maxlength/i);
  });
});
