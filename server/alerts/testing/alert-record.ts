// A stored alert for the evaluator's unit tests: one condition on target 7, start and end
// events, no actions. Each suite states the rules it tests through `over`.
import type { Condition } from '../../contract/alerts.js';
import type { AlertRecord } from '../repository.js';

export const alertRecord = (condition: Condition, over: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 1,
  accountId: 1,
  createdBy: 1,
  name: 'a',
  condition,
  events: ['start', 'end'],
  minRepeatSeconds: 0,
  forSeconds: 0,
  recoverSeconds: 0,
  enabled: true,
  lastError: '',
  lastErrorAt: null,
  targets: [7],
  actions: [],
  ...over,
});
