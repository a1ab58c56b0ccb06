// How a hop is named in the row menu's title and a timeline graph's title.
import type { TargetRow } from '../../../server/contract/targets';

export const hostLabel = (r: TargetRow) => (r.DNSName && r.DNSName !== r.IP ? `${r.DNSName} (${r.IP})` : r.IP || '*');
