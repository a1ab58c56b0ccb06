// The target window's heading text (spec 2 "Target window"): the description when it says
// more than the address, else "name (address)", else the address.
import type { TargetDetails } from '../../../../server/contract/targets';

export type HeadingState = { targetId?: string; notFound: boolean; details: TargetDetails | null };

export function targetHeadingText({ targetId, notFound, details }: HeadingState): string {
  if (!targetId) return 'New target';
  if (notFound) return `Target ${targetId} not found`;
  if (!details) return 'Loading…';
  const { TargetDescription: description, TargetDNSName: name, TargetIPAddress: address } = details;
  if (description && description !== address && description !== name) return description;
  if (name && name !== address) return `${name} (${address})`;
  return address || description;
}
