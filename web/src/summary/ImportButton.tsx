// "Import PP2 File" (pp2import flag): picks .pp2 files and imports them into this summary
// (All Targets: as new targets), with an upload progress bar and the spec's texts.
import { useRef } from 'react';
import type { Summary } from '../../../server/contract/summaries';
import { DataFileExtension, progressText, uploadPercent } from './logic/importFiles';
import { useImportFiles } from './useImportFiles';

export function ImportButton({ summary, allowed }: { summary: Summary; allowed: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const { progress, importFiles } = useImportFiles(summary.IsAllTargets ? undefined : summary.UniqueID);
  return (
    <span className="import-pp2">
      <button
        type="button"
        className="button secondary"
        disabled={!allowed || !!progress}
        title={allowed ? 'Import Hopwatch data files (.pp2) as targets of this summary' : 'No permission to import targets.'}
        onClick={() => input.current?.click()}
      >
        Import PP2 File
      </button>
      <input
        ref={input}
        type="file"
        accept={DataFileExtension}
        multiple
        hidden
        data-testid="import-pp2-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) void importFiles(files);
        }}
      />
      {progress && (
        <span className="import-progress" data-testid="import-progress">
          <progress max={100} value={uploadPercent(progress)} aria-label="Upload progress" />
          <span>{progressText(progress)}</span>
        </span>
      )}
    </span>
  );
}
