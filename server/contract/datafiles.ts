// Data files and reports (issue 18): what the console needs beyond spec 2's calls.

/** GET /api/data/RawRetention: how long raw hop samples are kept (docs/store.md "Retention"). */
export interface RawRetention {
  /** Raw hop samples are deleted after this many days; rollups stay longer. */
  RetentionRawDays: number;
  /** Now minus RetentionRawDays (ISO): a data file or samples report of an older range holds no samples before it. */
  RawKeptSince: string;
}
