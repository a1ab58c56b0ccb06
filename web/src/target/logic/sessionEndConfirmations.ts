// Confirmation texts for the play dropdown's commands that end the current session (issue
// 15: they acted at once). The spec names the commands but gives no confirmation text; the
// texts say what ends (the session, its statistics) and what stays (the data, under Sessions).
import type { Confirmation } from '../../components/ConfirmDialog';

const named = (targetName: string | undefined) => (targetName?.trim() ? targetName.trim() : 'this target');

/** "Reset And Restart": the session ends and a new trace of the same target starts. */
export function resetAndRestartConfirmation(targetName?: string): Confirmation {
  return {
    title: 'Reset And Restart',
    message: `Reset and restart ${named(targetName)}? The current session ends and a new trace of the same target starts with fresh statistics. The ended session's data stays under Sessions.`,
    confirmLabel: 'Reset And Restart',
  };
}

/** "Close (and Stop)": tracing stops and the session ends. */
export function closeAndStopConfirmation(targetName?: string): Confirmation {
  return {
    title: 'Close (and Stop)',
    message: `Stop tracing ${named(targetName)} and close it? The session ends; its data stays under Sessions.`,
    confirmLabel: 'Close and Stop',
  };
}
