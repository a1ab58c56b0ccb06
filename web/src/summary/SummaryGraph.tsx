// One target's timeline graph on the summary screen (spec 2 "Time graph": in summary mode a
// link to /targets/{id}): the target window's TimelineGraph for the target's final-hop row,
// with that target's comments (useComments) and its comment menu (TargetManagement). Only
// near the graphs pane's view (useNearView) does it plot, read data and comments and follow
// the hub; elsewhere it is a frame of the same size with the title and the link. Its data
// tops up as its own target's newest sample (the row's End) moves.
import { useRef, useState, type Dispatch } from 'react';
import { LocalMachineAgentName } from '../../../server/contract/sessions';
import type { Comment } from '../../../server/contract/summaries';
import type { TargetRow } from '../../../server/contract/targets';
import { reportError } from '../state/reportError';
import * as targetApi from '../target/api';
import { CommentDialog } from '../target/CommentDialog';
import { hostLabel } from '../target/hostLabel';
import type { GraphTimeAction, GraphTimeState } from '../target/logic/graphTimeState';
import { sessionIdOf } from '../target/logic/rowId';
import { TimelineGraph, TimelineTitle, type CommentAction } from '../target/TimelineGraph';
import { useComments } from '../target/useComments';
import { useTimegraphOptions } from '../settings/useTimegraphOptions';
import { timegraphSubtitle } from '../settings/logic/timegraphSubtitle';
import { useNearView } from './useNearView';

export interface SummaryGraphProps {
  row: TargetRow;
  time: GraphTimeState;
  dispatch: Dispatch<GraphTimeAction>;
  warnMs: number;
  badMs: number;
  fixedScaleMs: number | null;
  height: number;
  canComment: boolean;
  /** The graphs pane (the scroll container whose view decides which graphs plot). */
  pane: Element | null;
}

export function SummaryGraph({ row, time, dispatch, warnMs, badMs, fixedScaleMs, height, canComment, pane }: SummaryGraphProps) {
  const targetId = sessionIdOf(row.UniqueID);
  const slot = useRef<HTMLDivElement>(null);
  const near = useNearView(slot, pane);
  const { comments, reload } = useComments(near ? targetId : undefined, time);
  // Settings > General: always hide the setting name / the agent name on the time graphs.
  const timegraphOptions = useTimegraphOptions();
  const [edit, setEdit] = useState<{ comment?: Comment; atMs: number } | null>(null);
  const onComment = (a: CommentAction) => {
    if (a.kind === 'create') setEdit({ atMs: a.atMs });
    else if (a.kind === 'edit') setEdit({ comment: a.comment, atMs: Date.parse(a.comment.When) });
    else if (window.confirm(`Delete the comment "${a.comment.Text}"?`)) targetApi.deleteComment(targetId, a.comment.Id).then(reload, (e) => reportError(e));
  };
  const title = hostLabel(row);
  const subtitle = timegraphSubtitle(row.Columns.ConfigName ?? '', row.Columns.Agent || LocalMachineAgentName, timegraphOptions);
  const link = `/targets/${targetId}`;
  if (!near) {
    return (
      <div ref={slot}>
        <section className="timeline-graph" data-row-id={row.UniqueID} style={{ height: height + 26 }}>
          <header className="timeline-head">
            <TimelineTitle title={title} subtitle={subtitle} targetLink={link} />
          </header>
        </section>
      </div>
    );
  }
  return (
    <div ref={slot}>
      <TimelineGraph
        rowId={row.UniqueID}
        title={title}
        subtitle={subtitle}
        state={time}
        dispatch={dispatch}
        warnMs={warnMs}
        badMs={badMs}
        fixedScaleMs={fixedScaleMs}
        height={height}
        comments={comments}
        canComment={canComment}
        onComment={onComment}
        reloadToken={0}
        intervalMs={row.TraceInterval * 1000}
        targetLink={link}
        newestSampleMs={Date.parse(row.End ?? '') || null}
      />
      {edit && <CommentDialog targetId={targetId} comment={edit.comment} atMs={edit.atMs} onClose={() => (setEdit(null), reload())} />}
    </div>
  );
}
