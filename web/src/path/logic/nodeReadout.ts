// What hovering a Path view node tells (issue 44 item 2): address, name, AS and country, MPLS
// labels, and per agent whose path crosses it its hop, latency, loss and share. Pure: text
// only (React escapes it wherever it is shown).
import { mplsText } from '../../../../server/contract/hop-details';
import { LossNotOnPathText } from '../../../../server/contract/hop-loss';
import type { PathNode } from '../../../../server/contract/path-view';

export interface NodeReadout {
  title: string;
  lines: string[];
  agents: { agent: string; sessionId: number; hop: number; text: string }[];
}

const ms = (v: number | null) => (v === null ? 'no answer' : `${v.toFixed(v < 10 ? 2 : 1)} ms`);
const pct = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)}%`);

export function nodeReadout(n: PathNode, targetNameOf: (sessionId: number) => string = () => ''): NodeReadout {
  const title = n.Kind === 'Agent' ? `Agent ${n.Name}` : n.Kind === 'Silent' ? 'Silent hop (does not answer traceroute probes)' : n.Address! + (n.Name ? ` (${n.Name})` : '');
  const lines: string[] = [];
  if (n.Kind === 'Target') lines.push('Target');
  const as = n.Special ?? (n.Asn !== null ? `AS${n.Asn}${n.AsName ? ` ${n.AsName}` : ''}` : '');
  if (as) lines.push(`Network: ${as}`);
  if (n.Country) lines.push(`Country: ${n.Country}`);
  if (n.Mpls.length) lines.push(`MPLS: ${mplsText(n.Mpls)}`);
  if (n.LossStartPercent !== null && n.LossStartPercent > 0) lines.push(`Loss starts here: ${pct(n.LossStartPercent)} (it carries on to the target)`);
  else if (n.MutedLoss) lines.push(LossNotOnPathText[n.MutedLoss]);
  const agents = n.Kind === 'Agent' ? [] : n.Agents.map((a) => {
    const target = targetNameOf(a.SessionId);
    return {
      agent: a.AgentName,
      sessionId: a.SessionId,
      hop: a.Hop,
      text: `${a.AgentName}${target ? ` → ${target}` : ''}: hop ${a.Hop}, ${ms(a.LatencyMs)}, loss ${pct(a.LossPercent)}${a.SharePercent < 100 ? `, ${a.SharePercent}% of the hop's answers` : ''}`,
    };
  });
  return { title, lines, agents };
}
