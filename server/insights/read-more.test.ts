// Read More pages (issue 41 item 11): Markdown rendered as HTML, raw HTML never passed through.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageTitle, readMorePage } from './read-more.js';

describe('Read More pages', () => {
  it('renders the Markdown of a page as HTML with its title', () => {
    const html = readMorePage('# Red herring hops\n\nTest **202**.\n\n- one\n- two\n\n`code`\n', 'x.md');
    expect(html).toContain('<title>Red herring hops - Hopwatch Insights</title>');
    expect(html).toContain('<h1>Red herring hops</h1>');
    expect(html).toContain('<p>Test <strong>202</strong>.</p>');
    expect(html).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(html).toContain('<code>code</code>');
    expect(html).not.toMatch(/<script/i);
  });

  it('shows raw HTML in the Markdown as text and refuses script links', () => {
    const html = readMorePage('# T <img src=x onerror=alert(1)>\n\n<script>alert(1)</script>\n\n<b onclick="x()">bold</b> [click](javascript:alert(1))\n', 'x.md');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;');
    expect(html).toContain('<title>T &lt;img src=x onerror=alert(1)&gt; - Hopwatch Insights</title>');
    expect(html).not.toMatch(/<script>|<img|<b |href="javascript/i);
  });

  it('has a title for every page the results link to', () => {
    const dir = new URL('../../docs/insights/', import.meta.url);
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      const source = readFileSync(new URL(name, dir), 'utf8');
      expect(pageTitle(source, name), name).not.toBe(name);
    }
  });
});
