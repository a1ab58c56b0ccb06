// Agents as the console sees them (spec 3 section 7.5, GetAgents).

/** An agent as the hub's GetAgents answers it: the built-in Local Machine, or a remote one. */
export interface AgentItem {
  ID: number;
  Name: string;
  UniqueID: string;
  IsOnline: boolean;
}
