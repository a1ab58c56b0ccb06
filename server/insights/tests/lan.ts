// LAN_IsFirewallConfiguredCorrectly: whether the first hop or the LAN border drops the
// traceroute's ICMP, and what that means for the figures (100% loss at a hop that still
// forwards is not loss of the user's traffic).
import { TestCategory, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { pathHops } from '../path.js';
import { host, result, type WisdomTest } from '../result.js';

export const isFirewallConfiguredCorrectly: WisdomTest = {
  id: WisdomTestId.LAN_IsFirewallConfiguredCorrectly,
  title: 'Is the firewall configured correctly',
  category: TestCategory.LAN,
  page: 'lan-firewall.md',
  run(ctx) {
    const s = ctx.series;
    const hops = pathHops(ctx);
    const first = hops[0];
    const anyAnswer = hops.some((h) => h.figures.answered);
    if (!anyAnswer) {
      const r = result(this, WisdomResultEnum.Fail_LAN_AllIcmpBlocked, 'No ICMP answers at all', [
        'Neither the first hop, nor any hop after it, nor the target answered: a firewall on this machine or at the LAN border blocks the traceroute packets or their ICMP answers.',
        'All figures show 100% loss; they say nothing about the path until ICMP is allowed.',
      ]);
      if (first) r.WisdomHosts = [host(first.series, s.targetId)];
      return r;
    }
    if (first && !first.figures.answered) {
      const r = result(this, WisdomResultEnum.Fail_LAN_FirstHopDropsIcmp, 'The first hop does not answer', [
        `Hop #1 (your gateway) never answered while later hops did: it drops or does not send ICMP time-exceeded messages.`,
        'Its 100% loss is not loss of your traffic (packets pass through it); judge loss from the hops after it.',
      ]);
      r.WisdomHosts = [host(first.series, s.targetId)];
      return r;
    }
    const t = s.targetHop;
    const middle = hops.filter((h) => h.series.hop > 1 && (t === null || h.series.hop < t));
    if (first && t !== null && middle.length > 0 && middle.every((h) => !h.figures.answered)) {
      const r = result(this, WisdomResultEnum.Fail_LAN_NetworkBorderDropsIcmp, 'Nothing beyond the LAN answers', [
        'Hop #1 answers and the target answers, but no hop in between does: the LAN border firewall drops ICMP time-exceeded messages coming back from the internet.',
        'Those hops show 100% loss that is not loss of your traffic; per-hop diagnosis beyond the LAN is not possible.',
      ]);
      r.WisdomHosts = [host(middle[0].series, s.targetId)];
      return r;
    }
    return result(this, WisdomResultEnum.Pass, 'The firewall lets traceroute through', ['The first hop and the hops beyond the LAN answer the traceroute.']);
  },
};
