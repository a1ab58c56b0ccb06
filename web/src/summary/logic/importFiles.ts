// The Import PP2 File rules (spec 2 sections 5 and 8): only .pp2 files; the failure texts
// "Can't import file {name}" / "Can't import files [{names}]" with the server's message;
// the progress text while a file uploads and while the server imports it.
export const DataFileExtension = '.pp2';

export const isDataFile = (name: string) => name.toLowerCase().endsWith(DataFileExtension);

/** The route: into a named summary (204), or a new target whose id is answered (200). */
export const importUrl = (summaryId: string | undefined) => `/api/data/ImportPP2File/${summaryId === undefined ? '' : encodeURIComponent(summaryId)}`;

export interface ImportFailure {
  name: string;
  /** The server's Error, or why the console refused the file. */
  message?: string;
}

/** The one toast for the files that failed; undefined when none did. */
export function importFailureText(failures: readonly ImportFailure[]): string | undefined {
  if (!failures.length) return undefined;
  const withMessage = (f: ImportFailure) => (f.message ? `${f.name}: ${f.message}` : f.name);
  if (failures.length === 1) return `Can't import file ${withMessage(failures[0])}`;
  return `Can't import files [${failures.map(withMessage).join(', ')}]`;
}

export const notDataFileMessage = `only ${DataFileExtension} files can be imported`;

export interface ImportProgress {
  name: string;
  /** Index of the file (0-based) and how many there are. */
  index: number;
  count: number;
  loaded: number;
  total: number;
}

/** Whole percent uploaded. */
export const uploadPercent = (p: ImportProgress) => (p.total > 0 ? Math.min(100, Math.floor((p.loaded / p.total) * 100)) : 0);

/** "Uploading x.pp2: 45%", then, with every byte sent, "Importing x.pp2..." (the server checks and writes it). */
export function progressText(p: ImportProgress): string {
  const of = p.count > 1 ? ` (${p.index + 1} of ${p.count})` : '';
  return p.total > 0 && p.loaded >= p.total ? `Importing ${p.name}${of}...` : `Uploading ${p.name}${of}: ${uploadPercent(p)}%`;
}

export const importedText = (names: readonly string[]) => (names.length === 1 ? `Imported ${names[0]}` : `Imported ${names.length} files`);
