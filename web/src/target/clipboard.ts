// Copies text; falls back to a hidden text area where the Clipboard API is not offered
// (plain-http appliances reached by address are not a secure context).
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('The browser refused to copy to the clipboard.');
  } finally {
    area.remove();
  }
}
