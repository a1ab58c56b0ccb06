// Column definitions of the trace and summary grids (spec 2 "Column definition").
import { ColumnAlign, ColumnGridType, type ColumnDef, type GraphColumnKind } from '../contract/targets.js';

type Def = [GraphColumnKind, string, string, number, number, boolean];
// name, caption, hint, align, width, visible by default
const defs: Def[] = [
  ['Hop', 'Hop', 'Hop number along the route', ColumnAlign.Right, 44, true],
  ['ErrCount', 'Err', 'Lost packets in the focus period', ColumnAlign.Right, 50, false],
  ['PacketLoss', 'PL%', 'Packet loss percent in the focus period', ColumnAlign.Right, 60, true],
  ['IPAddress', 'IP', 'Address that answered for this hop', ColumnAlign.Left, 130, true],
  ['DNSName', 'Name', 'Reverse DNS name, or the name you gave the hop', ColumnAlign.Left, 220, true],
  ['Avg', 'Avg', 'Average latency (ms)', ColumnAlign.Right, 60, true],
  ['Min', 'Min', 'Minimum latency (ms)', ColumnAlign.Right, 60, false],
  ['Max', 'Max', 'Maximum latency (ms)', ColumnAlign.Right, 60, false],
  ['Cur', 'Cur', 'Latest latency (ms)', ColumnAlign.Right, 60, true],
  ['Graph', 'Graph', 'Latency min-avg-max and packet loss on a shared scale', ColumnAlign.Left, 300, true],
  ['User', 'Notes', 'Your notes on this hop', ColumnAlign.Left, 160, false],
  ['Agent', 'Agent', 'The agent that runs the trace', ColumnAlign.Left, 120, false],
  ['RouteLength', 'Hops', 'Number of hops to the target', ColumnAlign.Right, 50, false],
  // HopDetails (issue 16): what the hop reported besides its latency.
  ['Hosts', 'Hosts', 'Several hosts at one hop: each address with its share of the answers', ColumnAlign.Left, 280, false],
  ['MPLS', 'MPLS', 'MPLS label stack the hop reported (label, experimental bits, TTL; S: bottom of stack)', ColumnAlign.Left, 160, false],
  ['AS', 'AS', 'Autonomous system of the hop address (offline data), or its special range', ColumnAlign.Left, 160, false],
  ['Country', 'Country', 'Country of the hop address (offline data)', ColumnAlign.Center, 64, false],
  ['NAT', 'NAT', 'A device before this hop translated the UDP probe (NAT)', ColumnAlign.Center, 48, false],
  ['DSCP', 'DSCP', 'DSCP of the probe as the hop quoted it back', ColumnAlign.Right, 52, false],
];

export function columnDefs(gridType: number): ColumnDef[] {
  return defs
    .filter(([name]) => !(gridType === ColumnGridType.SingleTarget && name === 'RouteLength'))
    .map(([Name, Caption, Hint, Align, Width, visible]) => ({
      Name,
      Type: Name === 'Graph' ? 'graph' : ['Hop', 'ErrCount', 'PacketLoss', 'Avg', 'Min', 'Max', 'Cur', 'RouteLength'].includes(Name) ? 'number' : 'text',
      Hint,
      Caption,
      MenuCaption: Caption === Name ? Caption : `${Caption} (${Name})`,
      GridType: gridType,
      Align,
      CanChangeVisible: Name !== 'Hop',
      SizeAbility: Name !== 'Hop',
      Visible: gridType === ColumnGridType.Summary && Name === 'Hop' ? false : visible || (gridType === ColumnGridType.Summary && Name === 'RouteLength'),
      Width,
    }));
}
