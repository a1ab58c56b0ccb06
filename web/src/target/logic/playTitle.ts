// The play button's tooltip: its command, or, for a user without the TargetManagement claim,
// which command is refused. Spec 2 section 8 words the start case ("No permission to start
// traces."); pause and resume are refused by the same claim and say so in the same words
// (issue 41 item 12: a disabled Pause button said "start").
import { NoPermissionToStartTracesTooltip } from './constants';
import type { PlayAction } from './playAction';

const Label: Record<PlayAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume' };

export function playButtonTitle(action: PlayAction, mayManageTargets: boolean): string {
  if (mayManageTargets) return Label[action];
  return action === 'start' ? NoPermissionToStartTracesTooltip : `No permission to ${action} traces.`;
}
