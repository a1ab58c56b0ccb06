// What the grid and graphs colour and scale by: Warn and Bad (the target's own, else its
// configuration's DisplaySettings, else the defaults) and the Graph column's shared latency
// scale (logic/latencyScale), which follows the rows on screen.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import type { DisplaySettings } from '../../../server/contract/summaries';
import type { GraphRowsResult } from '../../../server/contract/targets';
import * as api from './api';
import { DisplaySettingsDefaults } from './logic/constants';
import { InitialLatencyScaleState, maxMeasuredLatency, nextLatencyScale, type LatencyScale } from './logic/latencyScale';
import { isHeaderRow } from './logic/rowId';

/**
 * `scaleSetting`: the Scale to use when the rows name no configuration (a summary's rows, whose
 * targets have their own: summary/logic/summaryScale); else the configuration's, else the default.
 */
export function useDisplaySettings(result: GraphRowsResult | null, scaleSetting?: number) {
  const configId = result?.Details?.ConfigurationID;
  const [display, setDisplay] = useState<DisplaySettings | null>(null);
  // Read again on SettingsChanged: a saved Warn, Bad or Scale shows in open consoles at once.
  const settingsVersion = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    if (configId === undefined) return;
    api.displaySettings(configId).then(setDisplay, (e) => console.warn('DisplaySettings failed', e));
  }, [configId, settingsVersion]);
  const configuredScale = display?.Scale ?? scaleSetting ?? DisplaySettingsDefaults.Scale;

  const [scale, setScale] = useState<LatencyScale>(InitialLatencyScaleState);
  useEffect(() => {
    if (!result) return;
    setScale((s) =>
      nextLatencyScale(s, {
        configuredScale,
        targetGraphScale: result.GraphScale,
        maxLatencyOnScreenMs: maxMeasuredLatency(result.Rows.filter((r) => !isHeaderRow(r.UniqueID)).map((r) => r.Maximum)),
      }),
    );
  }, [result, configuredScale]);

  return {
    warnMs: result?.WarningSpeed ?? display?.Warn ?? DisplaySettingsDefaults.Warn,
    badMs: result?.BadSpeed ?? display?.Bad ?? DisplaySettingsDefaults.Bad,
    /** The Graph column's scale. */
    scale,
    /** The timeline graphs' fixed latency axis, or null for automatic. */
    fixedScaleMs: configuredScale > 0 ? configuredScale : null,
  };
}
