import { describe, expect, it } from 'vitest';
import { closeAndStopConfirmation, resetAndRestartConfirmation } from './sessionEndConfirmations';

describe('session-ending confirmations', () => {
  it('name the command and the target', () => {
    expect(resetAndRestartConfirmation('example.org')).toMatchObject({ title: 'Reset And Restart', confirmLabel: 'Reset And Restart' });
    expect(resetAndRestartConfirmation('example.org').message).toMatch(/^Reset and restart example\.org\? The current session ends/);
    expect(closeAndStopConfirmation(' 10.0.0.1 ').message).toMatch(/^Stop tracing 10\.0\.0\.1 and close it\?/);
    expect(closeAndStopConfirmation('x').title).toBe('Close (and Stop)');
  });
  it('say "this target" without a name', () => {
    expect(closeAndStopConfirmation().message).toMatch(/^Stop tracing this target/);
    expect(resetAndRestartConfirmation('  ').message).toMatch(/^Reset and restart this target\?/);
  });
});
