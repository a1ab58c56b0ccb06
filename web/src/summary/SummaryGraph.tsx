// One target's timeline graph on the summary screen (spec 2 "Time graph": in summary mode a
// link to /targets/{id}): the target window's TimelineGraph for the target's final-hop row,
// with that target's comments (useComments) and its comment menu (TargetManagement).
import { useState, type Dispatch } from 'react';
import { LocalMachineAgentName } from '../../../server/contract/sessions';
import type { Comment } from '../../../server/contract/summaries';
import type { TargetRow } from '../../../server/contract/targets';
import { reportError } from '../state/reportError';
import * as targetApi from '../target/api';
import { CommentDialog } from '../target/CommentDialog';
import { hostLabel } from '../target/hostLabel';
import type { GraphTimeAction, GraphTimeState } from '../target/logic/graphTimeState';
import { sessionIdOf } from '../target/logic/rowId';
import { TimelineGraph, type CommentAction } from '../target/TimelineGraph';
import { useComments } from '../target/useComments';

export interface SummaryGraphProps {
  row: TargetRow;
  time: GraphTimeState;
  dispatch: Dispatch<GraphTimeAction>;
  warnMs: number;
  badMs: number;
  fixedScaleMs: number | null;
  height: number;
  canComment: boolean;
}

export function SummaryGraph({ row, time, dispatch, warnMs, badMs, fixedScaleMs, height, canComment }: SummaryGraphProps) {
  const targetId = sessionIdOf(row.UniqueID);
  const { comments, reload } = useComments(targetId, time);
  const [edit, setEdit] = useState<{ comment?: Comment; atMs: number } | null>(null);
  const onComment = (a: CommentAction) => {
    if (a.kind === 'create') setEdit({ atMs: a.atMs });
    else if (a.kind === 'edit') setEdit({ comment: a.comment, atMs: Date.parse(a.comment.When) });
    else if (window.confirm(`Delete the comment "${a.comment.Text}"?`)) targetApi.deleteComment(targetId, a.comment.Id).then(reload, (e) => reportError(e));
  };
  return (
    <>
      <TimelineGraph
        rowId={row.UniqueID}
        title={hostLabel(row)}
        subtitle={`${row.Columns.ConfigName ?? ''} · ${row.Columns.Agent || LocalMachineAgentName}`}
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
        targetLink={`/targets/${targetId}`}
      />
      {edit && <CommentDialog targetId={targetId} comment={edit.comment} atMs={edit.atMs} onClose={() => (setEdit(null), reload())} />}
    </>
  );
}
