// Session entity and enums of spec 2 section 3 / spec 3 section 10.

export const SessionState = { Active: 0, Pause: 1, Archived: 2, WillDelete: 3, Unknown: 4 } as const;
export type SessionState = (typeof SessionState)[keyof typeof SessionState];
export const SessionStateText: Record<SessionState, string> = {
  0: 'Active',
  1: 'Paused',
  2: 'Closed',
  3: 'Will Delete',
  4: 'Unknown',
};

export const PersistenceMode = { PersistLocally: 0, AdHoc: 1 } as const;
export const DynamicDnsMode = { Off: 0, Auto: 1 } as const;
export const CollectorMode = { Local: 0, Magneto: 1, Sentinel: 2 } as const;
export const SessionListCommandType = { OPEN: 0, DELETE: 1, EXPORT: 2 } as const;
export type SessionListCommandType = (typeof SessionListCommandType)[keyof typeof SessionListCommandType];

/** The built-in agent of the self-hosted flavour. */
export const LocalMachineAgentId = -1;
export const LocalMachineAgentName = 'Local Machine';

export interface Session {
  SessionID: number;
  StartTime: string;
  EndTime: string | null;
  TargetDescription: string;
  TargetIP: string;
  TargetName: string;
  PersistenceMode: number;
  AdHocLoadCycles: number;
  /** Negative: not loaded yet (shown "..."). */
  SampleCount: number;
  OriginalTarget: string;
  State: SessionState;
  StateString: string;
  DynamicDnsMode: number;
  SentinelID: number | null;
  HubSentinelID: number | null;
  HubSessionID: number | null;
  CollectorMode: number;
  MagnetoID: number | null;
  CloudConnectAccountId: number | null;
  AgentName: string;
  /** Made by importing a data file (its End is where its data ends): the page marks it "Imported" (issue 41 item 5). */
  Imported: boolean;
}

export interface SessionListCommand {
  Type: number;
  IDs: number[];
  PingServerId: number;
}

/** Answer of PerformSessionListCommand (REST and hub): what was done to which sessions. */
export interface SessionListCommandResult {
  Type: number;
  IDs: number[];
  /** EXPORT: the data file download of each session (GET, relative to the server); else empty. */
  DownloadUrls: string[];
}
