// Sidekick DTOs and constants of spec 3 sections 2.5, 3.2, 4.2, 9 and 10, shared by server/ and web/.
import type { LicenseMode } from './account.js';

/** Spec 3 section 10 "Sidekick Stage". */
export const SidekickStage = { Disabled: 0, Uninitialized: 1, DiscoveringTargets: 2, Running: 3, Done: 4 } as const;
export type SidekickStage = (typeof SidekickStage)[keyof typeof SidekickStage];

/** What each of the five targets is (a Hopwatch name: the spec only fixes 3 local + 2 external). */
export const SidekickSourceKind = {
  DefaultGateway: 'DefaultGateway',
  DnsResolver: 'DnsResolver',
  ProviderEdge: 'ProviderEdge',
  External1: 'External1',
  External2: 'External2',
} as const;
export type SidekickSourceKind = (typeof SidekickSourceKind)[keyof typeof SidekickSourceKind];
export const LocalSourceKinds: readonly SidekickSourceKind[] = ['DefaultGateway', 'DnsResolver', 'ProviderEdge'];
export const ExternalSourceKinds: readonly SidekickSourceKind[] = ['External1', 'External2'];

/** How a target's card exports (a Hopwatch detail; spec 3.2 names the field only). */
export interface SidekickExportDetails {
  /** Why a source has no trace ("No default route in the routing table"), or ''. */
  NotFoundReason: string;
  /** The target's DNS name ('' for an address without one) and address, as its trace resolved them. */
  DNSName: string;
  IP: string;
}

/** Spec 3 section 3.2 "Sidekick target" (+ Kind, so the console knows local from external). */
export interface SidekickTarget {
  /** The address or name the trace runs to ('' when the source was not found). */
  OriginalTarget: string;
  /** The target (session) id of its trace, '' when none was started. */
  WebTargetID: string;
  Label: string;
  Description: string;
  /** The target's own page: /sktargets/{WebTargetID} ('' without a trace). */
  ContentLink: string;
  ExportDetails: SidekickExportDetails;
  Kind: SidekickSourceKind;
}

/** Spec 3 section 3.2 "Sidekick state". */
export interface SidekickState {
  LicenseMode: LicenseMode;
  SidekickAvailable: boolean;
  /** The summary holding the Sidekick's traces (0 before discovery). */
  SidekickSummaryID: number;
  Stage: SidekickStage;
  Targets: SidekickTarget[];
  /** When discovery started (ISO), null before: the console shows the collected duration from it. */
  StartTime: string | null;
}

/** Spec 3 section 3.2 "Share URL item". */
export interface SidekickShareUrl {
  TargetDefinition: SidekickTarget;
  ShareUrl: string;
}

/** Spec 3 section 2.5: status codes -1 none, 0 good, 1 warn, otherwise bad. */
export const SidekickStatus = { None: -1, Good: 0, Warn: 1, Bad: 2 } as const;
export const SidekickStatusColour = { Good: '#96cd73', Warn: '#ffc251', Bad: '#fb6351' } as const;
/** Spec 3 sections 5 and 9. */
export const SidekickTargetCount = 5;
export const SidekickMinimumDataMs = 10 * 60_000;
export const SidekickStatusReloadMs = 500;
export const SidekickGraphHeight = 150;

/** Settings > General: the two external sources (sensible defaults: two public anycast resolvers). */
export const SidekickExternalSettingNames = ['SidekickExternalSource1', 'SidekickExternalSource2'] as const;
export const DefaultSidekickExternalSources = ['8.8.8.8', '1.1.1.1'] as const;

/**
 * One destination Sidekick will trace, as the welcome screen lists it before Get Started
 * (GET /api/Sidekick/PlannedSources; issue 41 item 13: it probed the gateway, the resolver and
 * public hosts without saying so). A Hopwatch addition; the spec names no such call.
 */
export interface SidekickPlannedSource {
  Kind: SidekickSourceKind;
  Label: string;
  Description: string;
  /** The address or name it will trace; '' when found only during discovery or not found. */
  Address: string;
  /** Why there is no address yet ('' when there is one). */
  Note: string;
}
