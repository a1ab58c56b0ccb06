import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../../server/contract/summaries';
import type { TargetRow } from '../../../../server/contract/targets';
import {
  addMenuSummaries,
  canChangeTargets,
  deleteSummaryConfirmation,
  errorText,
  renameEnabled,
  selectedTargetIds,
  selectionName,
  summaryDeletedMessage,
  summaryHeadingText,
  SummaryRenamedMessage,
} from './summaryRules';

const summary = (id: string, over: Partial<Summary> = {}): Summary => ({
  UniqueID: id,
  Name: `S${id}`,
  CanClose: true,
  Editable: true,
  IsAllTargets: false,
  TargetCount: 0,
  CanChangeTargets: true,
  ...over,
});
const row = (id: string, DNSName: string, IP: string, IsRunning = true) => ({ UniqueID: `${id}_h_4`, DNSName, IP, IsRunning, Columns: {} }) as unknown as TargetRow;

describe('who may change a summary', () => {
  it('targets are added or removed only with CanChangeTargets and not on All Targets', () => {
    expect(canChangeTargets(summary('2'))).toBe(true);
    expect(canChangeTargets(summary('2', { CanChangeTargets: false }))).toBe(false);
    expect(canChangeTargets(summary('1', { IsAllTargets: true }))).toBe(false);
    expect(canChangeTargets(null)).toBe(false);
  });
  it('the add menu excludes the current summary and All Targets', () => {
    const list = [summary('1', { IsAllTargets: true }), summary('2'), summary('3'), summary('4', { CanChangeTargets: false })];
    expect(addMenuSummaries(list, '2').map((s) => s.UniqueID)).toEqual(['3']);
    expect(addMenuSummaries(list, '1').map((s) => s.UniqueID)).toEqual(['2', '3']);
  });
});

describe('rename and delete texts', () => {
  it('Rename is enabled only for a different, non-empty name', () => {
    expect(renameEnabled('Core', 'Core')).toBe(false);
    expect(renameEnabled('Core', ' Core ')).toBe(false);
    expect(renameEnabled('Core', '   ')).toBe(false);
    expect(renameEnabled('Core', 'Edge')).toBe(true);
  });
  it('uses the texts of spec 2 sections 5 and 8', () => {
    expect(deleteSummaryConfirmation('Core routers').message).toBe('Are you sure you want to delete Core routers?');
    expect(summaryDeletedMessage('Core routers')).toBe('Summary Core routers deleted.');
    expect(SummaryRenamedMessage).toBe('Summary renamed');
    expect(errorText('A summary named "x" already exists.')).toBe('Error: A summary named "x" already exists.');
  });
  it('names the heading, or says the summary is not found', () => {
    expect(summaryHeadingText({ summaryId: '7', summary: summary('7'), notFound: false })).toBe('S7');
    expect(summaryHeadingText({ summaryId: '7', summary: null, notFound: true })).toBe('Summary 7 not found');
  });
});

describe('selection', () => {
  it('names each selected target once, skipping header rows', () => {
    expect(selectedTargetIds(['12_h_3', '9_h_0', '12_h_4', '5_h_2'])).toEqual(['12', '5']);
  });
  it('names one target by its name and address, several by their count', () => {
    expect(selectionName([])).toBeUndefined();
    expect(selectionName([row('1', 'gw.example', '10.0.0.1')])).toBe('gw.example (10.0.0.1)');
    expect(selectionName([row('1', '', '10.0.0.1')])).toBe('10.0.0.1');
    expect(selectionName([row('1', '', '10.0.0.1'), row('2', '', '10.0.0.2')])).toBe('2 targets');
  });
});
