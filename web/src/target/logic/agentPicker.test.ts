import { describe, expect, it } from 'vitest';
import { agentPickerDisabled, agentPickerVisible, agentTextStyle, chosenAgent, defaultNewTraceAgent, filterAgents, OfflineAgentColour, pickerAgent, sidekickAgent, sortAgents, type AgentItem } from './agentPicker';

const local: AgentItem = { ID: -1, Name: 'Local Machine', IsOnline: true };
const berlin: AgentItem = { ID: 4, Name: 'berlin', IsOnline: true };
const attic: AgentItem = { ID: 7, Name: 'Attic', IsOnline: false };
const zurich: AgentItem = { ID: 2, Name: 'Zurich', IsOnline: true };

describe('agent picker', () => {
  it('is shown only with more than one agent', () => {
    expect(agentPickerVisible([])).toBe(false);
    expect(agentPickerVisible([local])).toBe(false);
    expect(agentPickerVisible([local, attic])).toBe(true);
  });
  it('sorts online agents first, then by name', () => {
    expect(sortAgents([zurich, attic, local, berlin]).map((a) => a.Name)).toEqual(['berlin', 'Local Machine', 'Zurich', 'Attic']);
  });
  it('chooses the first agent when none is chosen or the chosen one is gone', () => {
    expect(chosenAgent([zurich, attic, berlin], null)).toBe(berlin);
    expect(chosenAgent([zurich, attic, berlin], 99)).toBe(berlin);
    expect(chosenAgent([zurich, attic, berlin], 7)).toBe(attic);
    expect(chosenAgent([], null)).toBeNull();
  });
  it('filters by name in any case', () => {
    expect(filterAgents([zurich, attic, local, berlin], 'ER').map((a) => a.ID)).toEqual([4]);
    expect(filterAgents([zurich, attic], '')).toEqual([zurich, attic]);
  });
  it('shows offline agents in red', () => {
    expect(agentTextStyle(attic)).toEqual({ color: OfflineAgentColour });
    expect(agentTextStyle(local).color).toBeUndefined();
  });
  it("Sidekick's agent: the chosen one, else the Local Machine where offered, else the first (a hosted customer's own agent)", () => {
    expect(sidekickAgent([berlin, local, zurich], null)).toBe(local);
    expect(sidekickAgent([berlin, local, zurich], 2)).toBe(zurich);
    // Hosted: the Local Machine is the provider's, not in the customer's list.
    expect(sidekickAgent([zurich, attic, berlin], null)).toBe(berlin);
    expect(sidekickAgent([], null)).toBeNull();
  });
  it("shows the open trace's own agent, even offline, not the first online one (issue 40 item 2)", () => {
    const branch: AgentItem = { ID: 9, Name: 'Branch office', IsOnline: false };
    expect(pickerAgent([local, branch, berlin], null, branch, false)).toBe(branch);
    // Not in the console's list (a user who may not manage agents): still the trace's agent.
    expect(pickerAgent([local], null, branch, false)).toBe(branch);
    // What the user picked stays picked.
    expect(pickerAgent([local, branch, berlin], 4, branch, false)).toBe(berlin);
  });
  it('defaults a new trace to the Local Machine self-hosted, to the first online own agent hosted (issue 40 item 8)', () => {
    const pending: AgentItem = { ID: 3, Name: 'Aardvark (never installed)', IsOnline: false };
    // Self-hosted: the Local Machine, not the first in picker order (berlin) nor a pending agent.
    expect(defaultNewTraceAgent([pending, zurich, berlin, local], false)).toBe(local);
    expect(pickerAgent([pending, zurich, berlin, local], null, null, false)).toBe(local);
    // Hosted: the account's first online agent, even where staff granted the Local Machine.
    expect(defaultNewTraceAgent([pending, zurich, berlin, local], true)).toBe(berlin);
    expect(defaultNewTraceAgent([pending, attic, local], true)).toBe(local);
    expect(defaultNewTraceAgent([pending, attic], true)).toBe(pending);
    expect(defaultNewTraceAgent([], true)).toBeNull();
  });
  it('is disabled while rows are selected', () => {
    expect(agentPickerDisabled(0)).toBe(false);
    expect(agentPickerDisabled(2)).toBe(true);
  });
});
