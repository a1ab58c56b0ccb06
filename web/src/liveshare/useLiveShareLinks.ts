// The links of the management screen (all, or those of one summary or agent), the names of
// the summaries and agents they share (the Shared list column, the filtered header, the edit
// modal's pickers), and `reload` after every change (spec 1 section 4).
import { useCallback, useEffect, useState } from 'react';
import type { LiveShareLink } from '../../../server/contract/liveshare';
import { ServerError } from '../api/errors';
import { getSummaries } from '../api/summaries';
import { invoke } from '../hub/connection';
import { reportError } from '../state/reportError';
import { linksForSummary, listLinks } from './api';

export interface SharedChoice {
  ref: string;
  name: string;
}

export function useSharedNames() {
  const [summaries, setSummaries] = useState<SharedChoice[]>([]);
  const [agents, setAgents] = useState<SharedChoice[]>([]);
  useEffect(() => {
    getSummaries()
      .then((list) => setSummaries((list ?? []).filter((s) => !s.IsAllTargets).map((s) => ({ ref: `SUM-${s.UniqueID}`, name: s.Name }))))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the summaries: ' }));
    // Over the hub: the Local Machine, and the remote agents for users who manage them.
    invoke('GetAgents').then(
      (list) => setAgents((list ?? []).map((a) => ({ ref: `AGT-${a.UniqueID}`, name: a.Name }))),
      (e: unknown) => console.warn('GetAgents failed', e),
    );
  }, []);
  const names = new Map([...summaries, ...agents].map((c) => [c.ref.toUpperCase().startsWith('SUM-') ? c.ref.toUpperCase() : c.ref, c.name]));
  return { summaries, agents, names };
}

export function useLiveShareLinks(filter: string | undefined) {
  const [links, setLinks] = useState<LiveShareLink[]>([]);
  const [invalid, setInvalid] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let live = true;
    (filter ? linksForSummary(filter) : listLinks())
      .then((list) => {
        if (!live) return;
        setLinks(list ?? []);
        setInvalid(false);
        setLoaded(true);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setLoaded(true);
        // An unknown SUM-/AGT- id: the page says so ("Summary {id} not a valid summary").
        if (e instanceof ServerError && e.status === 404) setInvalid(true);
        else reportError(e, { prefix: 'Could not load the LiveShare links: ' });
      });
    return () => {
      live = false;
    };
  }, [filter, version]);

  return { links, invalid, loaded, reload };
}
