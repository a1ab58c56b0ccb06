// Imports data files for the summary screen: one upload at a time with its progress, the
// spec's failure toast for the files that failed, an info toast for the rest. Into a named
// summary the server answers 204 and the rows follow SummaryChanged; without one (All
// Targets) it answers the new target's id, and one imported file opens its target window
// with the Insights auto-run flag.
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { TargetIdResult } from '../../../server/contract/targets';
import { errorMessage } from '../api/errors';
import { uploadFile } from '../api/upload';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import type { TargetNavigationState } from '../target/navigationState';
import { importFailureText, importUrl, importedText, isDataFile, notDataFileMessage, type ImportFailure, type ImportProgress } from './logic/importFiles';

export function useImportFiles(summaryId: string | undefined) {
  const navigate = useNavigate();
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const importFiles = useCallback(
    async (files: File[]) => {
      const failures: ImportFailure[] = [];
      const imported: string[] = [];
      const ids: number[] = [];
      const ok = files.filter((f) => isDataFile(f.name));
      for (const f of files) if (!isDataFile(f.name)) failures.push({ name: f.name, message: notDataFileMessage });
      for (const [index, file] of ok.entries()) {
        setProgress({ name: file.name, index, count: ok.length, loaded: 0, total: file.size });
        try {
          const r = await uploadFile<TargetIdResult>(importUrl(summaryId), 'file', file, ({ loaded, total }) =>
            setProgress({ name: file.name, index, count: ok.length, loaded, total }),
          );
          imported.push(file.name);
          if (r?.ID !== undefined) ids.push(r.ID);
        } catch (e) {
          failures.push({ name: file.name, message: errorMessage(e) || undefined });
        }
      }
      setProgress(null);
      const failed = importFailureText(failures);
      if (failed) reportError(new Error(failed));
      if (imported.length) showInfo(importedText(imported));
      if (ids.length === 1 && files.length === 1) navigate(`/targets/${ids[0]}`, { state: { runInsights: true } satisfies TargetNavigationState });
    },
    [summaryId, navigate],
  );
  return { progress, importFiles };
}
