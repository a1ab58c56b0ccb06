// The Insights tests' Read More pages (docs/insights/{page}.md) as HTML in the console's look
// (issue 41 item 11: the link opened raw Markdown). Rendered here, on the server, by
// markdown-it with raw HTML off: any HTML written in a page is shown as text, never passed
// through, and its link check refuses javascript:, vbscript:, file: and most data: URLs.
// The page carries no script; the appliance's Content-Security-Policy allows its inline style.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => entities[c]);

/** The page's title: its first level-1 heading, else the file's name. */
export function pageTitle(source: string, fallback: string): string {
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(source);
  return heading ? heading[1] : fallback;
}

// The console's palette (web/src/styles.css :root) and type, in one small inline sheet.
const style = `
:root { --accent: #14b8a6; --sidebar-bg: #0f1723; --sidebar-text: #c3ccd8; --page-bg: #f3f5f8; --card-bg: #fff; --line: #dfe4ea; --text: #1b2430; --muted: #5f6b7a; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--page-bg); color: var(--text); font: 14px/1.55 "Inter", "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, sans-serif; }
header { background: var(--sidebar-bg); color: var(--sidebar-text); padding: 12px 28px; font-weight: 600; letter-spacing: .02em; }
header span { color: var(--accent); }
main { max-width: 860px; margin: 24px auto; padding: 24px 32px; background: var(--card-bg); border: 1px solid var(--line); border-radius: 8px; overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 0 0 12px; } h2 { font-size: 17px; margin-top: 24px; }
a { color: #0d9488; }
code, pre { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, monospace; background: #f1f5f9; border-radius: 4px; }
code { padding: 1px 4px; } pre { padding: 10px 12px; overflow-x: auto; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; }
blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--line); color: var(--muted); }
`;

/** The whole HTML page of one Read More Markdown source. */
export function readMorePage(source: string, fileName: string): string {
  const title = pageTitle(source, fileName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Hopwatch Insights</title>
<style>${style}</style>
</head>
<body>
<header>Hopwatch <span>Insights</span></header>
<main class="insights-read-more">
${markdown.render(source)}</main>
</body>
</html>
`;
}
