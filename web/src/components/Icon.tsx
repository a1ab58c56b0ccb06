// A small set of line icons drawn inline (no icon font to load).
const paths = {
  logo: 'M3 17 L8 11 L12 14 L17 6 L21 9',
  targets: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18 M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8 M12 11.5v1',
  summary: 'M4 5h16 M4 10h16 M4 15h10 M4 20h7',
  agents: 'M4 5h16v10H4z M9 19h6 M12 15v4',
  sessions: 'M3 12h4l3-7 4 14 3-7h4',
  users: 'M9 11a4 4 0 1 0 0-8a4 4 0 1 0 0 8 M2 21c0-4 3-6 7-6s7 2 7 6 M17 3.5a4 4 0 0 1 0 7.5 M19 15c2 .8 3 2.6 3 6',
  settings: 'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6 M12 2v3 M12 19v3 M2 12h3 M19 12h3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M4.9 19.1L7 17 M17 7l2.1-2.1',
  staff: 'M12 2l8 4v6c0 5-3.5 8.5-8 10c-4.5-1.5-8-5-8-10V6z',
  user: 'M12 12a4.5 4.5 0 1 0 0-9a4.5 4.5 0 1 0 0 9 M3 21c0-4.5 4-7 9-7s9 2.5 9 7',
  key: 'M8 15a4 4 0 1 0 0-8a4 4 0 1 0 0 8 M11 11h10 M17 11v4 M20 11v3',
  logout: 'M15 4h4v16h-4 M10 8l-4 4 4 4 M6 12h11',
  login: 'M9 4H5v16h4 M14 8l4 4-4 4 M18 12H7',
  plus: 'M12 5v14 M5 12h14',
  chevron: 'M9 6l6 6-6 6',
  collapse: 'M15 6l-6 6 6 6 M20 4v16',
  expand: 'M9 6l6 6-6 6 M4 4v16',
  warning: 'M12 3l10 18H2z M12 10v5 M12 18v.5',
  help: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18 M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6 M12 17v.5',
  share: 'M18 8a3 3 0 1 0 0-6a3 3 0 1 0 0 6 M6 15a3 3 0 1 0 0-6a3 3 0 1 0 0 6 M18 22a3 3 0 1 0 0-6a3 3 0 1 0 0 6 M8.6 13.5l6.8 4 M15.4 6.5l-6.8 4',
  card: 'M3 6h18v12H3z M3 10h18',
  close: 'M6 6l12 12 M18 6L6 18',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={paths[name]} />
    </svg>
  );
}
