// Graph scale on the summary screen (issue 41 item 2: Automatic applies to every graph). A
// summary's rows are targets of any configuration, and its rows result names none (Details is
// null), so the screen used the default Scale (100 ms) for every graph, whatever Settings said.
// Each target's timeline graph now takes its own configuration's Scale (found by the row's
// ConfigName); the grid's Graph column, one axis for all rows, takes the Scale the rows'
// configurations share, else Automatic (which fits them all).
import { DisplaySettingsDefaults, GraphScaleFollowTarget } from '../../target/logic/constants';

/** A configuration's Graph scale setting by configuration name. */
export type ScalesByName = ReadonlyMap<string, number>;

/** The Scale setting of a row's configuration; the default while it is not known. */
export function rowScaleSetting(configName: string | undefined, scales: ScalesByName): number {
  return scales.get(configName ?? '') ?? DisplaySettingsDefaults.Scale;
}

/** A timeline graph's fixed latency axis for a Scale setting, or null for automatic (0, -2 and anything else not above 0). */
export function fixedScaleOf(scaleSetting: number): number | null {
  return scaleSetting > 0 ? scaleSetting : null;
}

/**
 * The Scale setting of the summary grid's Graph column: the one all rows' configurations
 * share; Automatic (0) when they differ or there are no rows. Follow (-2) is kept only when
 * all rows follow.
 */
export function summaryScaleSetting(configNames: readonly (string | undefined)[], scales: ScalesByName): number {
  const settings = new Set(configNames.map((n) => rowScaleSetting(n, scales)));
  if (settings.size !== 1) return 0;
  const [only] = settings;
  return only === GraphScaleFollowTarget || only > 0 ? only : 0;
}
