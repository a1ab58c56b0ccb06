// Part of npm run bench:engine: the CPU floor of our cadence without any runtime. A plain C
// loop does what one trace's round does, as often: every INTERVAL ms (on a grid,
// clock_nanosleep), 4 ICMP echo probes (TTL 1..4) through an IPPROTO_RAW socket, one sendto()
// each with a clock read before it, then the replies already queued read with recvmmsg(). No
// matching, no path state, no event loop. What it costs per 1,000 probes is what any prober
// pays for waking every INTERVAL ms to send 4 probes through these namespaces (the kernel
// forwards each probe and its answer inside sendto(), charged to the sender); scamper's
// figure in the same run sends its probes in bursts instead. `per_wake` rounds per wake-up
// (default 1) shows what bursts take off.
// Usage: engine-floor TARGET_IPV4 ROUNDS INTERVAL_MS [PER_WAKE]; prints one JSON line.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

static unsigned short checksum(const unsigned char *p, int n) {
  unsigned s = 0;
  for (int i = 0; i < n; i += 2) s += (unsigned)(p[i] << 8 | p[i + 1]);
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return (unsigned short)~s;
}

static double cpu_seconds(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 4) return 2;
  int rounds = atoi(argv[2]), interval_ms = atoi(argv[3]), per_wake = argc > 4 ? atoi(argv[4]) : 1;
  int tx = socket(AF_INET, SOCK_RAW, IPPROTO_RAW), rx = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
  if (tx < 0 || rx < 0) { perror("socket"); return 1; }
  struct sockaddr_in to = { .sin_family = AF_INET };
  if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) return 2;
  enum { BATCH = 32, SLOT = 2048 };
  static unsigned char bufs[BATCH][SLOT];
  struct mmsghdr msgs[BATCH];
  struct iovec iov[BATCH];
  for (int i = 0; i < BATCH; i++) {
    iov[i] = (struct iovec){ bufs[i], SLOT };
    memset(&msgs[i], 0, sizeof msgs[i]);
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
  }
  unsigned char pkt[56];
  int seq = 0, replies = 0;
  struct timespec next, stamp;
  clock_gettime(CLOCK_MONOTONIC, &next);
  double cpu0 = cpu_seconds();
  for (int r = 0; r < rounds; r++) {
    for (int ttl = 1; ttl <= 4; ttl++) {
      memset(pkt, 0, sizeof pkt);
      pkt[0] = 0x45; pkt[3] = sizeof pkt; pkt[6] = 0x40; pkt[8] = (unsigned char)ttl; pkt[9] = IPPROTO_ICMP;
      memcpy(pkt + 16, &to.sin_addr, 4);
      seq++;
      pkt[20] = 8; pkt[24] = 0x7e; pkt[25] = 0x57; pkt[26] = (unsigned char)(seq >> 8); pkt[27] = (unsigned char)seq;
      unsigned short sum = checksum(pkt + 20, sizeof pkt - 20);
      pkt[22] = (unsigned char)(sum >> 8); pkt[23] = (unsigned char)sum;
      clock_gettime(CLOCK_MONOTONIC, &stamp); // the send time, as a prober takes it
      sendto(tx, pkt, sizeof pkt, 0, (struct sockaddr *)&to, sizeof to);
    }
    int n;
    while ((n = recvmmsg(rx, msgs, BATCH, MSG_DONTWAIT, NULL)) > 0) replies += n;
    if ((r + 1) % per_wake) continue;
    next.tv_nsec += interval_ms * 1000000L;
    while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
  }
  double cpu = cpu_seconds() - cpu0;
  printf("{\"perThousand\":%.6f,\"probes\":%d,\"replies\":%d,\"cpu\":%.6f}\n", cpu / (rounds * 4.0) * 1000, rounds * 4, replies, cpu);
  return 0;
}
