// The AGENT DETAIL panel as rendered: Reconnect is not offered on a PENDING agent (issue 40
// item 8: it was, and answered with a red toast and a red banner).
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AgentDetail, type AgentDetailActions } from './AgentDetail';
import type { AgentRowSource } from './logic/agentRows';

type Props = Parameters<typeof AgentDetail>[0];
// Every action does nothing; the props the panel takes besides these are empty (no setup link loaded).
const actions = new Proxy({}, { get: () => () => {} }) as AgentDetailActions;

function buttons(agent: AgentRowSource): string[] {
  const props = { agent, targets: [], averages: new Map(), actions, setupLink: null } as unknown as Props;
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <AgentDetail {...props} />
    </MemoryRouter>,
  );
  return [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]).filter((t) => t !== '×');
}

const agent = (over: Partial<AgentRowSource>): AgentRowSource => ({ ID: 7, Name: 'Branch', UniqueID: 'u7', IsOnline: false, Configured: false, ...over });

describe('AgentDetail', () => {
  it('offers Reconnect on an agent that connected before, not on a PENDING one', () => {
    expect(buttons(agent({ Configured: false }))).not.toContain('Reconnect');
    expect(buttons(agent({ Configured: false }))).toContain('Rename');
    expect(buttons(agent({ Configured: true }))).toContain('Reconnect');
    expect(buttons(agent({ Configured: true, IsOnline: true }))).toEqual(expect.arrayContaining(['Reconnect', 'Uninstall']));
  });
});
