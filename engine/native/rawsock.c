// rawsock: a minimal raw-socket addon for the probe worker (Node-API, context-aware).
// Built for few crossings into JavaScript: a round's probes go out in one call (one sendto
// per probe, each stamped right before its sendto), and received datagrams are read with
// recvmmsg() and handed over in batches, one callback per batch.
// Why our own: the raw-socket package polls its sockets on uv_default_loop(), i.e. the main
// thread's loop, so it crashes when used from a worker thread (verified: segfault on the first
// socket event). This one polls on the loop of the thread that opened the socket, drains all
// queued datagrams per wake-up, and timestamps on CLOCK_MONOTONIC (the clock of
// process.hrtime): right before sendto(), and for receives the kernel's own timestamp
// (SO_TIMESTAMPNS, taken when the packet arrived, as ping does) carried over to CLOCK_MONOTONIC,
// so the time the thread took to wake up is not part of an RTT.
// Native rounds (second half of the file): a trace's whole rounds run here (tick, probes,
// sends, matching, stamps, timeouts) and JavaScript hears of them once per delivery window.
// Rounds are matched and stamped here; what a reply means is still read by engine/codec.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <uv.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define MAX_DRAIN 256
// Datagrams per recvmmsg() and per callback; each lands in its own SLOT bytes of the
// receive buffer (a reply is parsed from its headers: a longer one may be cut).
#define BATCH 32
#define SLOT 2048

struct Instance;

typedef struct RawSock {
  int fd;
  int family;
  int protocol;
  struct Instance *inst;
  uv_poll_t *poll;
  int polling;
  int closed;
  int dispatching;
  napi_env env;
  napi_ref callback;
  napi_ref buffer_ref;
  napi_ref meta_ref;
  napi_ref from_ref;
  char *buf;
  // Per datagram of a batch: meta[2i] = bytes, meta[2i+1] = receive time (ns, CLOCK_MONOTONIC);
  // from[16i..] = sender address (IPv4: the first 4 bytes).
  double *meta;
  unsigned char *from;
  struct RawSock *next;
} RawSock;

// A repeating timer on this thread's loop that calls straight into JavaScript: a trace's
// round cadence without Node's timer lists (a JS timer costs a few JS frames per tick).
typedef struct Ticker {
  uv_timer_t timer; // first: the struct is freed as the handle (see close_ticker)
  napi_env env;
  napi_ref callback;
  napi_async_context context;
  int closed;
  // The cadence is a grid: tick k is due at start + delay + k * repeat (loop ms). A libuv
  // repeating timer counts each repeat from when the late tick ran, so under load every late
  // tick pushed the later ones back (1,000 traces on a loaded machine got 51 rounds a minute
  // at 1 s). Each tick arms the next one-shot at the next point of the grid instead.
  uint64_t due;
  uint64_t repeat;
  struct Instance *inst;
  uint64_t pass;  // the loop pass of its last tick (see "One tick per pass")
  int deferred;
  struct Ticker *next;
} Ticker;

struct NFlow;
struct NRound;

typedef struct Instance {
  RawSock *head;
  Ticker *tickers;
  // Native rounds (see "Native rounds" below).
  struct NFlow *flows;
  struct NFlow **by_flow_id; // 65536 entries, made on the first flow
  napi_ref report_cb;
  napi_async_context report_ctx;
  napi_env env;
  uv_timer_t *deliver_timer;
  uint64_t last_call;      // loop ms of the last call of report_cb
  int held_window;         // smallest window among flows holding finished rounds (0: none held)
  // The flows holding finished rounds, in the order they got them: a delivery visits these, not
  // every flow (with 1,000 flows, walking the list 50 times a second was 3.4% of the thread).
  // A flow may appear twice (flowTake emptied it in between); has_finished tells.
  struct NFlow **held;
  int nheld, held_cap;
  struct NRound **touched; // rounds answered during the current read
  int ntouched, touched_cap;
  int in_js;               // >0 while JavaScript runs from inside the addon's own calls
  unsigned char *sendbuf;  // a round's probes, back to back
  size_t sendbuf_len;
  int defer;               // >0: a caller reports after it is done with the rounds it holds
  // Thread CPU (ns) in native ticks (send, read, match) and in report calls (JavaScript), and
  // their counts: nativeStats(), for measurements.
  double tick_ns, report_ns, ticks, reports;
  // Whether ticks and report calls are timed (HOPWATCH_NATIVE_STATS=1): CLOCK_THREAD_CPUTIME_ID
  // is a system call (no vDSO), two per tick and per report: ~1.5% of the probe thread.
  int stats;
  // The delivery's records (see flat_round): ArrayBuffers kept from one delivery to the next, so
  // a delivery allocates nothing in JavaScript unless it needs more room than the last one.
  struct Flat *flat;
  // One tick per pass (see on_prepare): the loop's passes, counted in its prepare phase, and
  // how many tickers and flows wait there for their deferred tick.
  uv_prepare_t *prepare;
  uint64_t pass;
  int ndeferred;
} Instance;

static int native_match(Instance *inst, RawSock *s, const unsigned char *buf, int len, const unsigned char *from, double at);
static void native_after_read(Instance *inst, int from_js);


static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static napi_value throw_errno(napi_env env, const char *what, int err) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
  char code[32];
  snprintf(code, sizeof code, "%s", err == EPERM ? "EPERM" : err == EACCES ? "EACCES" : "ERAWSOCK");
  napi_throw_error(env, code, msg);
  return NULL;
}

static RawSock *get_sock(napi_env env, napi_value v) {
  RawSock *s = NULL;
  if (napi_get_value_external(env, v, (void **)&s) != napi_ok || !s || s->closed) {
    napi_throw_error(env, NULL, "socket is closed");
    return NULL;
  }
  return s;
}

// `tearing_down`: called from the environment cleanup hook, where Node-API calls are not
// safe any more (the references die with the environment).
static void close_sock(RawSock *s, Instance *inst, int tearing_down) {
  if (s->closed) return;
  s->closed = 1;
  if (!tearing_down) {
    if (s->callback) napi_delete_reference(s->env, s->callback);
    if (s->buffer_ref) napi_delete_reference(s->env, s->buffer_ref);
    if (s->meta_ref) napi_delete_reference(s->env, s->meta_ref);
    if (s->from_ref) napi_delete_reference(s->env, s->from_ref);
  }
  s->callback = NULL;
  s->buffer_ref = NULL;
  s->meta_ref = NULL;
  s->from_ref = NULL;
  close(s->fd);
  s->fd = -1;
  if (inst) {
    RawSock **p = &inst->head;
    while (*p && *p != s) p = &(*p)->next;
    if (*p) *p = s->next;
  }
  if (s->polling) {
    uv_poll_stop(s->poll);
    s->poll->data = NULL;
    // The close callback is libc's free, not a function of this addon: in a worker thread
    // Node unloads addons before it runs the last close callbacks.
    uv_close((uv_handle_t *)s->poll, (uv_close_cb)(void *)free);
  }
  // Closed from inside its own receive callback: on_readable frees it when it returns.
  if (!s->dispatching) free(s);
}

// Reads every queued datagram (up to MAX_DRAIN), BATCH at a time with recvmmsg(), and calls
// back once per batch with its count. Frees the socket when it was closed from inside a callback.
static void drain(RawSock *s, int from_js) {
  napi_env env = s->env;
  Instance *inst = s->inst;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value cb, global;
  napi_get_reference_value(env, s->callback, &cb);
  napi_get_global(env, &global);
  s->dispatching = 1;
  struct mmsghdr msgs[BATCH];
  struct iovec iov[BATCH];
  struct sockaddr_storage from[BATCH];
  union { char buf[CMSG_SPACE(sizeof(struct timespec)) * 2]; struct cmsghdr align; } ctrl[BATCH];
  for (int total = 0; total < MAX_DRAIN && !s->closed;) {
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
      iov[i].iov_base = s->buf + (size_t)i * SLOT;
      iov[i].iov_len = SLOT;
      msgs[i].msg_hdr.msg_name = &from[i];
      msgs[i].msg_hdr.msg_namelen = sizeof from[i];
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_control = ctrl[i].buf;
      msgs[i].msg_hdr.msg_controllen = sizeof ctrl[i].buf;
    }
    int n = recvmmsg(s->fd, msgs, BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0) break; // EAGAIN: drained (other errors: try again on the next wake-up)
    // The kernel stamps on CLOCK_REALTIME: take "now" on both clocks back to back and move
    // each stamp over by how long its datagram waited. A waiting time that is negative or
    // above 1 s means the wall clock stepped: then the read time is the best we have.
    struct timespec real_now;
    clock_gettime(CLOCK_REALTIME, &real_now);
    double mono_now = now_ns();
    int taken = 0;
    for (int i = 0; i < n; i++) {
      double at = mono_now;
      struct msghdr *m = &msgs[i].msg_hdr;
      for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
          struct timespec kernel;
          memcpy(&kernel, CMSG_DATA(c), sizeof kernel);
          // Integer seconds first: epoch nanoseconds do not fit a double exactly.
          double waited = (double)(real_now.tv_sec - kernel.tv_sec) * 1e9 + (double)(real_now.tv_nsec - kernel.tv_nsec);
          if (waited >= 0 && waited < 1e9) at -= waited;
        }
      }
      s->meta[2 * i] = (double)(msgs[i].msg_len < SLOT ? msgs[i].msg_len : SLOT);
      s->meta[2 * i + 1] = at;
      unsigned char *a = s->from + 16 * i;
      memset(a, 0, 16);
      if (from[i].ss_family == AF_INET6) memcpy(a, &((struct sockaddr_in6 *)&from[i])->sin6_addr, 16);
      else memcpy(a, &((struct sockaddr_in *)&from[i])->sin_addr, 4);
      // A reply to a probe of a native round is taken here (C matching, see native_match):
      // JavaScript sees it as an empty datagram, and is not called at all when every
      // datagram of the batch was taken.
      if (inst && inst->by_flow_id && native_match(inst, s, (unsigned char *)s->buf + (size_t)i * SLOT, (int)s->meta[2 * i], a, at)) {
        s->meta[2 * i] = 0;
        taken++;
      }
    }
    if (taken < n) {
      napi_value argv[1];
      napi_create_int32(env, n, &argv[0]);
      napi_value result;
      if (inst) inst->in_js++;
      napi_status st = napi_call_function(env, global, cb, 1, argv, &result);
      if (inst) inst->in_js--;
      if (st != napi_ok) {
        napi_value err;
        if (napi_get_and_clear_last_exception(env, &err) == napi_ok) napi_fatal_exception(env, err);
        break;
      }
    }
    total += n;
    // A short batch emptied the queue: spare the read that would only say EAGAIN.
    if (n < BATCH) break;
  }
  s->dispatching = 0;
  if (inst && !s->closed) native_after_read(inst, from_js);
  napi_close_handle_scope(env, scope);
  if (s->closed) free(s);
}

static void on_readable(uv_poll_t *h, int status, int events) {
  RawSock *s = (RawSock *)h->data;
  if (!s || status < 0 || s->closed || !s->callback) return;
  drain(s, 0);
}

// open(family: 4|6, protocol: number) -> socket
static napi_value Open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t family = 0, protocol = 0;
  napi_get_value_int32(env, argv[0], &family);
  napi_get_value_int32(env, argv[1], &protocol);
  int fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_RAW, protocol);
  if (fd < 0) return throw_errno(env, "socket", errno);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
  RawSock *s = calloc(1, sizeof *s);
  s->fd = fd;
  s->family = family;
  s->protocol = protocol;
  s->env = env;
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
  s->inst = inst;
  if (inst) { s->next = inst->head; inst->head = s; }
  napi_value ext;
  napi_create_external(env, s, NULL, NULL, &ext);
  return ext;
}

// setOption(socket, level, option, value: number | Buffer)
static napi_value SetOption(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (!s) return NULL;
  int32_t level = 0, option = 0;
  napi_get_value_int32(env, argv[1], &level);
  napi_get_value_int32(env, argv[2], &option);
  bool isbuf = false;
  napi_is_buffer(env, argv[3], &isbuf);
  int rc;
  if (isbuf) {
    void *data; size_t len;
    napi_get_buffer_info(env, argv[3], &data, &len);
    rc = setsockopt(s->fd, level, option, data, (socklen_t)len);
  } else {
    int32_t v = 0;
    napi_get_value_int32(env, argv[3], &v);
    int iv = v;
    rc = setsockopt(s->fd, level, option, &iv, sizeof iv);
  }
  if (rc < 0) return throw_errno(env, "setsockopt", errno);
  return NULL;
}

static int to_sockaddr(int family, const char *addr, struct sockaddr_storage *to, socklen_t *tolen) {
  memset(to, 0, sizeof *to);
  if (family == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)to;
    a->sin6_family = AF_INET6;
    *tolen = sizeof *a;
    return inet_pton(AF_INET6, addr, &a->sin6_addr) == 1;
  }
  struct sockaddr_in *a = (struct sockaddr_in *)to;
  a->sin_family = AF_INET;
  *tolen = sizeof *a;
  return inet_pton(AF_INET, addr, &a->sin_addr) == 1;
}

// send(socket, buffer, length, address) -> send time in ns (CLOCK_MONOTONIC), or -errno
static napi_value Send(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (!s) return NULL;
  void *data; size_t buflen;
  napi_get_buffer_info(env, argv[1], &data, &buflen);
  uint32_t len = 0;
  napi_get_value_uint32(env, argv[2], &len);
  if (len > buflen) len = (uint32_t)buflen;
  char addr[64];
  size_t alen = 0;
  napi_get_value_string_latin1(env, argv[3], addr, sizeof addr, &alen);
  struct sockaddr_storage to;
  socklen_t tolen;
  if (!to_sockaddr(s->family, addr, &to, &tolen)) return throw_errno(env, "bad address", EINVAL);
  double at = now_ns();
  ssize_t n = sendto(s->fd, data, len, 0, (struct sockaddr *)&to, tolen);
  napi_value out;
  napi_create_double(env, n < 0 ? -(double)errno : at, &out);
  return out;
}

// sendBatch(socket, buffer, length, count, address, times: Float64Array): sends `count`
// datagrams of `length` bytes packed back to back in buffer, one sendto() each, to one
// address. times[i] = send time in ns (CLOCK_MONOTONIC, right before its sendto), or -errno.
static napi_value SendBatch(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (!s) return NULL;
  void *data; size_t buflen;
  napi_get_buffer_info(env, argv[1], &data, &buflen);
  uint32_t len = 0, count = 0;
  napi_get_value_uint32(env, argv[2], &len);
  napi_get_value_uint32(env, argv[3], &count);
  char addr[64];
  size_t alen = 0;
  napi_get_value_string_latin1(env, argv[4], addr, sizeof addr, &alen);
  napi_typedarray_type type;
  size_t tlen = 0;
  void *tdata = NULL;
  napi_get_typedarray_info(env, argv[5], &type, &tlen, &tdata, NULL, NULL);
  if (type != napi_float64_array || tlen < count || (size_t)len * count > buflen) {
    napi_throw_error(env, NULL, "sendBatch: buffer or times too small");
    return NULL;
  }
  struct sockaddr_storage to;
  socklen_t tolen;
  if (!to_sockaddr(s->family, addr, &to, &tolen)) return throw_errno(env, "bad address", EINVAL);
  double *times = tdata;
  for (uint32_t i = 0; i < count; i++) {
    double at = now_ns();
    ssize_t n = sendto(s->fd, (char *)data + (size_t)i * len, len, 0, (struct sockaddr *)&to, tolen);
    times[i] = n < 0 ? -(double)errno : at;
  }
  return NULL;
}

// The MTU of the interface a connected socket leaves by: `ifname` when bound to one, else the
// interface holding the local address connect() chose by the route. Only where IP_MTU/IPV6_MTU
// are not answered (ENOPROTOOPT): qemu-user, which runs the linux-arm64 agent in its test
// (docs/agents.md "Supported platforms"), does not pass them through; a kernel always answers.
static int interface_mtu(int fd, int family, const char *ifname) {
  char name[IF_NAMESIZE] = "";
  if (ifname[0]) {
    snprintf(name, sizeof name, "%s", ifname);
  } else {
    struct sockaddr_storage local;
    socklen_t llen = sizeof local;
    if (getsockname(fd, (struct sockaddr *)&local, &llen) < 0) return -1;
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) < 0) return -1;
    for (struct ifaddrs *i = ifs; i && !name[0]; i = i->ifa_next) {
      if (!i->ifa_addr || i->ifa_addr->sa_family != local.ss_family) continue;
      int same = family == 6
        ? memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, &((struct sockaddr_in6 *)&local)->sin6_addr, 16) == 0
        : ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr == ((struct sockaddr_in *)&local)->sin_addr.s_addr;
      if (same) strncpy(name, i->ifa_name, IF_NAMESIZE - 1);
    }
    freeifaddrs(ifs);
    if (!name[0]) { errno = ENODEV; return -1; }
  }
  struct ifreq r;
  memset(&r, 0, sizeof r);
  memcpy(r.ifr_name, name, IFNAMSIZ);
  if (ioctl(fd, SIOCGIFMTU, &r) < 0) return -1;
  return r.ifr_mtu;
}

// pathMtu(family, address, interface | null) -> the MTU toward address: what the kernel's
// routing says for a connected UDP socket (the outgoing interface's MTU, or a smaller path MTU
// it learned). Nothing is sent. Throws on a bad address or no route.
static napi_value PathMtu(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t family = 0;
  napi_get_value_int32(env, argv[0], &family);
  char addr[64];
  size_t alen = 0;
  napi_get_value_string_latin1(env, argv[1], addr, sizeof addr, &alen);
  char ifname[64] = "";
  size_t ilen = 0;
  napi_valuetype t = napi_null;
  if (argc > 2) napi_typeof(env, argv[2], &t);
  if (t == napi_string) napi_get_value_string_latin1(env, argv[2], ifname, sizeof ifname, &ilen);
  struct sockaddr_storage to;
  socklen_t tolen;
  if (!to_sockaddr(family, addr, &to, &tolen)) return throw_errno(env, "bad address", EINVAL);
  // Any port: connect() on a UDP socket only looks up the route.
  if (family == 6) ((struct sockaddr_in6 *)&to)->sin6_port = htons(9);
  else ((struct sockaddr_in *)&to)->sin_port = htons(9);
  int fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return throw_errno(env, "socket", errno);
  if (ilen > 0 && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)ilen + 1) < 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "SO_BINDTODEVICE", err);
  }
  if (connect(fd, (struct sockaddr *)&to, tolen) < 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "connect", err);
  }
  int mtu = 0;
  socklen_t mlen = sizeof mtu;
  int rc = family == 6 ? getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &mlen) : getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &mlen);
  if (rc < 0 && errno == ENOPROTOOPT) {
    mtu = interface_mtu(fd, family, ifname);
    rc = mtu < 0 ? -1 : 0;
  }
  int err = errno;
  close(fd);
  if (rc < 0) return throw_errno(env, family == 6 ? "getsockopt IPV6_MTU" : "getsockopt IP_MTU", err);
  napi_value out;
  napi_create_int32(env, mtu, &out);
  return out;
}

// receive(socket, buffer, meta: Float64Array, from: Buffer, callback(count)): polls on this
// thread's loop; buffer holds BATCH slots of SLOT bytes, meta 2 numbers and from 16 bytes per
// datagram (see RawSock).
static napi_value Receive(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (!s) return NULL;
  if (s->polling) { napi_throw_error(env, NULL, "already receiving"); return NULL; }
  void *data; size_t len;
  napi_get_buffer_info(env, argv[1], &data, &len);
  napi_typedarray_type type;
  size_t mlen = 0;
  void *mdata = NULL;
  napi_get_typedarray_info(env, argv[2], &type, &mlen, &mdata, NULL, NULL);
  void *fdata; size_t flen;
  napi_get_buffer_info(env, argv[3], &fdata, &flen);
  if (len < (size_t)BATCH * SLOT || type != napi_float64_array || mlen < 2 * BATCH || flen < 16 * BATCH) {
    napi_throw_error(env, NULL, "receive: buffers too small");
    return NULL;
  }
  int one = 1;
  setsockopt(s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
  s->buf = data;
  s->meta = mdata;
  s->from = fdata;
  napi_create_reference(env, argv[1], 1, &s->buffer_ref);
  napi_create_reference(env, argv[2], 1, &s->meta_ref);
  napi_create_reference(env, argv[3], 1, &s->from_ref);
  napi_create_reference(env, argv[4], 1, &s->callback);
  uv_loop_t *loop = NULL;
  napi_get_uv_event_loop(env, &loop);
  s->poll = malloc(sizeof *s->poll);
  uv_poll_init_socket(loop, s->poll, s->fd);
  s->poll->data = s;
  s->polling = 1;
  uv_poll_start(s->poll, UV_READABLE, on_readable);
  return NULL;
}

// drain(socket): read what is queued now, without waiting for the loop's poll phase (a timer
// that fires after a stall runs before the poll phase, while replies already wait here).
static napi_value Drain(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (s && s->callback && !s->dispatching) drain(s, 1);
  return NULL;
}

// unref(socket): the poll does not keep the thread alive.
static napi_value Unref(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = get_sock(env, argv[0]);
  if (s && s->polling) uv_unref((uv_handle_t *)s->poll);
  return NULL;
}

static napi_value Close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  RawSock *s = NULL;
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
  if (napi_get_value_external(env, argv[0], (void **)&s) == napi_ok && s) close_sock(s, inst, 0);
  return NULL;
}

// setThreadName(name): names the calling thread (top -H, /proc/self/task/*/comm; 15 bytes).
static napi_value SetThreadName(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char name[16];
  size_t len = 0;
  napi_get_value_string_latin1(env, argv[0], name, sizeof name, &len);
  prctl(PR_SET_NAME, name, 0, 0, 0);
  return NULL;
}

static napi_value Now(napi_env env, napi_callback_info info) {
  napi_value out;
  napi_create_double(env, now_ns(), &out);
  return out;
}

static void close_ticker(Ticker *t, Instance *inst, int tearing_down) {
  if (t->closed) return;
  t->closed = 1;
  if (!tearing_down) {
    napi_delete_reference(t->env, t->callback);
    napi_async_destroy(t->env, t->context);
  }
  t->callback = NULL;
  if (inst) {
    Ticker **p = &inst->tickers;
    while (*p && *p != t) p = &(*p)->next;
    if (*p) *p = t->next;
  }
  uv_timer_stop(&t->timer);
  t->timer.data = NULL;
  // libc's free as the close callback, as for the polls (addons unload before it runs).
  uv_close((uv_handle_t *)&t->timer, (uv_close_cb)(void *)free);
}

static void on_tick(uv_timer_t *h) {
  Ticker *t = (Ticker *)h->data;
  if (!t || t->closed || !t->callback) return;
  if (t->inst && t->inst->prepare && t->pass == t->inst->pass) { t->deferred = 1; t->inst->ndeferred++; return; }
  if (t->inst) t->pass = t->inst->pass;
  if (t->repeat > 0) {
    // Armed before JavaScript runs, so a tickerStart/tickerStop from the callback wins.
    uint64_t now = uv_now(h->loop);
    t->due += t->repeat;
    // More than a whole interval behind (a stall): skip the ticks missed, keep the grid.
    if (t->due + t->repeat <= now) t->due += ((now - t->due) / t->repeat) * t->repeat;
    uv_timer_start(&t->timer, on_tick, t->due > now ? t->due - now : 0, 0);
  }
  napi_env env = t->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value cb, global, result;
  napi_get_reference_value(env, t->callback, &cb);
  napi_get_global(env, &global);
  // make_callback: microtasks and process.nextTick callbacks run after it, as after a JS timer.
  if (napi_make_callback(env, t->context, global, cb, 0, NULL, &result) != napi_ok) {
    napi_value err;
    if (napi_get_and_clear_last_exception(env, &err) == napi_ok) napi_fatal_exception(env, err);
  }
  napi_close_handle_scope(env, scope);
}

static Ticker *get_ticker(napi_env env, napi_value v) {
  Ticker *t = NULL;
  if (napi_get_value_external(env, v, (void **)&t) != napi_ok || !t || t->closed) {
    napi_throw_error(env, NULL, "ticker is closed");
    return NULL;
  }
  return t;
}

// ticker(callback) -> ticker: a stopped timer; tickerStart(ticker, delayMs, repeatMs) arms it
// (repeatMs 0: once), tickerStop(ticker) disarms it, tickerClose(ticker) frees it.
static napi_value NewTicker(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uv_loop_t *loop = NULL;
  napi_get_uv_event_loop(env, &loop);
  Ticker *t = calloc(1, sizeof *t);
  t->env = env;
  uv_timer_init(loop, &t->timer);
  t->timer.data = t;
  napi_create_reference(env, argv[0], 1, &t->callback);
  napi_value name;
  napi_create_string_latin1(env, "hopwatch:roundTicker", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, NULL, name, &t->context);
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
  if (inst) { t->inst = inst; t->next = inst->tickers; inst->tickers = t; }
  napi_value ext;
  napi_create_external(env, t, NULL, NULL, &ext);
  return ext;
}

static napi_value TickerStart(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Ticker *t = get_ticker(env, argv[0]);
  if (!t) return NULL;
  double delay = 0, repeat = 0;
  napi_get_value_double(env, argv[1], &delay);
  napi_get_value_double(env, argv[2], &repeat);
  if (!(delay >= 0)) delay = 0;
  if (!(repeat >= 0)) repeat = 0;
  t->repeat = (uint64_t)repeat;
  t->deferred = 0;
  t->due = uv_now(t->timer.loop) + (uint64_t)delay;
  uv_timer_start(&t->timer, on_tick, (uint64_t)delay, 0);
  return NULL;
}

static napi_value TickerStop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Ticker *t = get_ticker(env, argv[0]);
  if (t) { uv_timer_stop(&t->timer); t->deferred = 0; }
  return NULL;
}

static napi_value TickerClose(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Ticker *t = NULL;
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
  if (napi_get_value_external(env, argv[0], (void **)&t) == napi_ok && t) close_ticker(t, inst, 0);
  return NULL;
}

// ---------------------------------------------------------------------------------------------
// Native rounds. A trace whose probes go out whole and back to back (no inter-hop delay, no
// fragmentation) can have its rounds run here, without JavaScript per round: the flow's own
// timer (the same grid as the ticker) writes the round's probes from the flow's template (TTL
// and probe number patched as ProbeTemplate.write does), sends them (one sendto each, stamped
// right before it), and reads what is queued. Replies are matched in C on the receive path by
// (family, protocol, flow id, probe number) and the probe's destination and port, stamped with
// the kernel's time, and kept as raw bytes: JavaScript parses each matched reply once, when
// the round is reported (all interpretation stays in the codecs). A round ends when every
// probe up to the end of the path answered (an unreachable, or the destination itself) or its
// timeout passed. JavaScript is called once per delivery window with the rounds that started
// or ended since its last call (report_cb); the path state, the TTL list of the next rounds
// (flowTtls), the order of delivery, pause, stop and retarget stay in JavaScript.
// ---------------------------------------------------------------------------------------------

#define MAX_TTLS 256
#define PROBE_FIELDS 7
#define DELIVERY_GRACE_MS 10
// Native flows' grids start on multiples of this many ms of the loop clock (see FlowRun): with
// 1,000 traces at 1 s, 100 wake-ups a second with 10 flows' sends each instead of 1,000 with one.
#define COALESCE_MS 10
#define MAX_PROBES_IN_FLIGHT 0x7fff

enum { P_NOT_SENT = 0, P_PENDING = 1, P_SEND_ERROR = 2, P_ANSWERED = 3 };
enum { K_ECHO = 1, K_TIME_EXCEEDED = 2, K_UNREACHABLE = 3, K_TCP = 4 };

typedef struct Conf {
  int refs;
  int id;
  int family;
  int protocol; // 1 icmp, 2 udp, 3 tcp
  RawSock *sender;
  struct sockaddr_storage to;
  socklen_t tolen;
  unsigned char dest[16];
  int dest_port;
  int tcp_data;
  int dscp;
  double timeout_ms;
  unsigned char *tmpl;
  int len;
  int transport;
  uint32_t ip_sum, transport_sum, wanted;
} Conf;

typedef struct NProbe {
  uint8_t ttl;
  uint8_t state;
  uint8_t sock_protocol; // the receive socket's protocol (ICMP/ICMPv6 or TCP): which parser reads it
  uint8_t kind;          // simple replies (no bytes kept): K_*, ICMP type and code, sender
  uint8_t icmp_type, icmp_code;
  unsigned char responder[16];
  double sent_ns;
  double rtt_ms;
  unsigned char *reply; // 16 bytes sender address, then the datagram
  int reply_len;
} NProbe;

typedef struct NRound {
  struct NRound *next;
  struct NFlow *flow;
  double serial;
  double time_ms;
  int seq_start;
  int count;
  Conf *conf;
  uint64_t deadline; // loop ms
  int end_ttl;
  int finished;
  int reported_start;
  int touched;
  NProbe probes[];
} NRound;

typedef struct NFlow {
  uv_timer_t timer; // first: the struct is freed as this handle (see flow_close)
  uv_timer_t *timeout;
  Instance *inst;
  napi_env env;
  double id;
  int flow_id;
  int closed;
  int armed;
  uint64_t pass; // the loop pass of its last tick (see "One tick per pass")
  int deferred;
  uint64_t due, repeat;
  uint8_t ttls[MAX_TTLS];
  int nttls;
  int next_seq;
  int in_flight;
  double last_start;
  double next_serial;
  int window_ms;
  int has_finished;
  Conf *conf;
  NRound *head, *tail;
  struct NFlow *next;
} NFlow;

static double thread_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec * 1e3 + (double)(ts.tv_nsec / 1000000);
}

static uint32_t fold16(uint32_t s) {
  while (s > 0xffff) s = (s & 0xffff) + (s >> 16);
  return s;
}

static void conf_unref(Conf *c) {
  if (c && --c->refs == 0) { free(c->tmpl); free(c); }
}

/** ProbeTemplate.write, byte for byte (engine/codec/probe-packet.ts). */
static void write_probe(const Conf *c, unsigned char *b, int ttl, int seq) {
  memcpy(b, c->tmpl, c->len);
  int t = c->transport;
  if (c->family == 4) {
    b[4] = seq >> 8; b[5] = seq & 0xff; b[8] = ttl;
    uint32_t sum = ~fold16(c->ip_sum + ((uint32_t)ttl << 8) + seq) & 0xffff;
    b[10] = sum >> 8; b[11] = sum & 0xff;
  } else {
    b[7] = ttl;
  }
  if (c->protocol == 1) {
    b[t + 6] = seq >> 8; b[t + 7] = seq & 0xff;
    uint32_t word = ~fold16(fold16(c->transport_sum + seq) + c->wanted) & 0xffff;
    b[t + 8] = word >> 8; b[t + 9] = word & 0xff;
  } else if (c->protocol == 2) {
    uint32_t word = ~fold16(c->transport_sum + seq) & 0xffff;
    b[t + 8] = word >> 8; b[t + 9] = word & 0xff;
    b[t + 6] = seq >> 8; b[t + 7] = seq & 0xff;
  } else {
    b[t + 6] = seq >> 8; b[t + 7] = seq & 0xff;
    uint32_t sum = ~fold16(c->transport_sum + seq) & 0xffff;
    b[t + 16] = sum >> 8; b[t + 17] = sum & 0xff;
  }
}

static int seq_at(int start, int i) { return ((start - 1 + i) % 0xfffe) + 1; }

static inline uint16_t rd16(const unsigned char *b) { return (uint16_t)((b[0] << 8) | b[1]); }
static inline uint32_t rd32(const unsigned char *b) { return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3]; }

/**
 * What a reply answers, as engine/codec/reply.ts reads it (only the fields matching needs):
 * protocol of the probe, flow id, probe number (TCP resets: the acknowledged sequence, see
 * rst), the probe's destination and port, the reply's kind and sender.
 */
typedef struct Key {
  int family;
  int protocol; // 1 icmp, 2 udp, 3 tcp
  int flow_id;
  int seq;
  int rst;           // a TCP reset: acked holds the acknowledgement number - 1
  uint32_t acked;
  unsigned char dest[16];
  int dest_port;
  int kind;
  unsigned char responder[16];
  int icmp_type, icmp_code;
  // What only the codecs read (see simple_reply): an RFC 4884 extension may follow the quote
  // (MPLS), the quoted DSCP (-1: no quote), a UDP checksum that is not the probe number (NAT).
  int extension, quoted_dscp, nat;
} Key;

// The quoted probe's transport header at q (ICMP errors). 1 when it is one of our probe kinds.
static int quoted_key(Key *k, int proto, int echo_type, const unsigned char *q) {
  // ICMPv6 quotes: the codecs take next header 58 or 1 as ICMP; IPv4 quotes 1 only.
  if (proto == 1 || (proto == 58 && k->family == 6)) {
    if (q[0] != echo_type) return 0;
    k->protocol = 1; k->flow_id = rd16(q + 4); k->seq = rd16(q + 6); k->dest_port = 0;
    return 1;
  }
  if (proto == 17) {
    k->protocol = 2; k->flow_id = rd16(q); k->seq = rd16(q + 6); k->dest_port = rd16(q + 2);
    return 1;
  }
  if (proto == 6) {
    uint32_t seq = rd32(q + 4);
    k->flow_id = rd16(q);
    if ((seq >> 16) != (uint32_t)k->flow_id) return 0;
    k->protocol = 3; k->seq = seq & 0xffff; k->dest_port = rd16(q + 2);
    return 1;
  }
  return 0;
}

static int tcp_key(Key *k, const unsigned char *b, int t, int len) {
  if (len - t < 20) return 0;
  int flags = b[t + 13];
  int syn_ack = (flags & 0x12) == 0x12, rst_ack = (flags & 0x14) == 0x14;
  if (!syn_ack && !rst_ack) return 0;
  uint32_t acked = rd32(b + t + 8) - 1;
  k->flow_id = rd16(b + t + 2);
  if (syn_ack && (acked >> 16) != (uint32_t)k->flow_id) return 0;
  k->protocol = 3; k->kind = K_TCP; k->dest_port = rd16(b + t);
  k->seq = acked & 0xffff;
  k->rst = !syn_ack;
  k->acked = acked;
  memcpy(k->dest, k->responder, 16);
  return 1;
}

/**
 * Reads the key of a datagram from a receive socket of `family` and `sock_protocol` (1 ICMP,
 * 58 ICMPv6, 6 TCP); `from` is the sender (IPv6 sockets deliver no IP header). 1 when it is a
 * reply to one of our probe kinds, with the same rules as engine/codec/reply.ts.
 */
static int reply_key(int family, int sock_protocol, const unsigned char *b, int len, const unsigned char *from, Key *k) {
  memset(k, 0, sizeof *k);
  k->family = family;
  if (family == 4) {
    if (len < 20 || (b[0] >> 4) != 4) return 0;
    int hl = (b[0] & 0x0f) * 4;
    if (hl < 20 || len < hl) return 0;
    memcpy(k->responder, b + 12, 4);
    if (sock_protocol == 6) return b[9] == 6 && tcp_key(k, b, hl, len);
    if (b[9] != 1 || len - hl < 8) return 0;
    const unsigned char *icmp = b + hl;
    int type = icmp[0];
    k->icmp_type = type; k->icmp_code = icmp[1]; k->quoted_dscp = -1;
    if (type == 0) {
      k->protocol = 1; k->kind = K_ECHO; k->flow_id = rd16(icmp + 4); k->seq = rd16(icmp + 6);
      memcpy(k->dest, k->responder, 4);
      return 1;
    }
    if (type != 11 && type != 3) return 0;
    int qo = hl + 8;
    if (len - qo < 20 || (b[qo] >> 4) != 4) return 0;
    int qhl = (b[qo] & 0x0f) * 4;
    if (qhl < 20 || len - qo < qhl) return 0;
    if (((b[qo + 6] & 0x1f) | b[qo + 7]) != 0) return 0;
    int qt = qo + qhl;
    if (len - qt < 8) return 0;
    k->kind = type == 11 ? K_TIME_EXCEEDED : K_UNREACHABLE;
    memcpy(k->dest, b + qo + 16, 4);
    if (!quoted_key(k, b[qo + 9], 8, b + qt)) return 0;
    // UDP: matched by the quoted identification (the probe number too; NAT rewrites the checksum).
    if (k->protocol == 2) {
      k->nat = rd16(b + qt + 6) != rd16(b + qo + 4);
      k->seq = rd16(b + qo + 4);
    }
    k->quoted_dscp = b[qo + 1] >> 2;
    k->extension = icmp[5] != 0 || len - qo > 128;
    return 1;
  }
  memcpy(k->responder, from, 16);
  k->quoted_dscp = -1;
  if (sock_protocol == 6) return tcp_key(k, b, 0, len);
  if (len < 8) return 0;
  int type = b[0];
  k->icmp_type = type; k->icmp_code = b[1];
  if (type == 129) {
    k->protocol = 1; k->kind = K_ECHO; k->flow_id = rd16(b + 4); k->seq = rd16(b + 6);
    memcpy(k->dest, from, 16);
    return 1;
  }
  if (type != 3 && type != 1) return 0;
  if (len - 8 < 40 || (b[8] >> 4) != 6) return 0;
  int qt = 48;
  int next = b[8 + 6];
  if (next == 44) {
    if (len - qt < 8) return 0;
    if ((rd16(b + qt + 2) & 0xfff8) != 0) return 0;
    next = b[qt];
    qt += 8;
  }
  if (len - qt < 8) return 0;
  k->kind = type == 3 ? K_TIME_EXCEEDED : K_UNREACHABLE;
  memcpy(k->dest, b + 8 + 24, 16);
  k->quoted_dscp = (((b[8] & 0x0f) << 4) | (b[9] >> 4)) >> 2;
  k->extension = b[4] != 0 || len - 8 > 128;
  return quoted_key(k, next, 128, b + qt);
}

/**
 * A reply whose outcome the codecs would fill from the key alone: no possible extension, no
 * NAT mark, and a quoted DSCP that fillOutcome leaves out (the trace sets none and the quote
 * says 0). Its kind, ICMP type and code and sender go to JavaScript as numbers and bytes; any
 * other reply goes as its bytes, for the codecs to read.
 */
static int simple_reply(const Key *k, int dscp) {
  if (k->extension || k->nat) return 0;
  if (k->quoted_dscp >= 0 && (dscp != 0 || k->quoted_dscp != dscp)) return 0;
  return 1;
}

static void touch(Instance *inst, NRound *r) {
  if (r->touched) return;
  if (inst->ntouched == inst->touched_cap) {
    inst->touched_cap = inst->touched_cap ? 2 * inst->touched_cap : 64;
    inst->touched = realloc(inst->touched, sizeof *inst->touched * inst->touched_cap);
  }
  r->touched = 1;
  inst->touched[inst->ntouched++] = r;
}

/** Matches a received datagram to a probe of a native round: 1 when it was one (taken). */
static int native_match(Instance *inst, RawSock *s, const unsigned char *buf, int len, const unsigned char *from, double at) {
  Key k;
  if (!reply_key(s->family, s->protocol, buf, len, from, &k)) return 0;
  NFlow *f = inst->by_flow_id[k.flow_id & 0xffff];
  if (!f || f->closed) return 0; // not a native flow: JavaScript's prober matches it
  int seq = k.seq;
  if (k.rst) {
    // A reset acknowledges the SYN's data bytes too: take them off to find the probe.
    uint32_t s32 = k.acked - (uint32_t)(f->conf ? f->conf->tcp_data : 0);
    if ((s32 >> 16) != (uint32_t)k.flow_id) return 1;
    seq = s32 & 0xffff;
  }
  for (NRound *r = f->head; r; r = r->next) {
    if (r->finished) continue;
    int idx = ((seq - 1) - (r->seq_start - 1) + 2 * 0xfffe) % 0xfffe;
    if (idx >= r->count) continue;
    Conf *c = r->conf;
    NProbe *p = &r->probes[idx];
    // Same flow and number but not our destination or port: someone else's packet.
    if (c->family != k.family || c->protocol != k.protocol || p->state != P_PENDING) return 1;
    if (memcmp(c->dest, k.dest, c->family == 4 ? 4 : 16) != 0) return 1;
    if (c->protocol != 1 && k.dest_port != c->dest_port) return 1;
    double rtt = (at - p->sent_ns) / 1e6;
    if (rtt > c->timeout_ms) return 1;
    p->state = P_ANSWERED;
    p->rtt_ms = rtt;
    p->sock_protocol = s->protocol;
    p->kind = k.kind;
    p->icmp_type = k.icmp_type;
    p->icmp_code = k.icmp_code;
    memcpy(p->responder, k.responder, 16);
    if (!simple_reply(&k, c->dscp)) {
      // The datagram, then its sender's 16 address bytes (IPv6 sockets deliver no IP header).
      p->reply = malloc((size_t)len + 16);
      memcpy(p->reply, buf, len);
      memcpy(p->reply + len, from, 16);
      p->reply_len = len;
    }
    int ended = k.kind == K_UNREACHABLE || memcmp(k.responder, c->dest, c->family == 4 ? 4 : 16) == 0;
    if (ended && p->ttl < r->end_ttl) r->end_ttl = p->ttl;
    touch(inst, r);
    return 1;
  }
  return 1;
}

static int round_complete(NRound *r) {
  for (int i = 0; i < r->count; i++) {
    if (r->probes[i].ttl > r->end_ttl) break;
    if (r->probes[i].state == P_PENDING) return 0;
  }
  return 1;
}

static void hold(Instance *inst, NFlow *f) {
  if (!f->has_finished) {
    if (inst->nheld == inst->held_cap) {
      inst->held_cap = inst->held_cap ? 2 * inst->held_cap : 64;
      inst->held = realloc(inst->held, sizeof *inst->held * inst->held_cap);
    }
    inst->held[inst->nheld++] = f;
  }
  f->has_finished = 1;
  if (inst->held_window == 0 || f->window_ms < inst->held_window) inst->held_window = f->window_ms;
}

static void round_finish(NRound *r) {
  if (r->finished) return;
  r->finished = 1;
  // Probes beyond the end of the path are not part of this round's answer.
  for (int i = 0; i < r->count; i++) {
    if (r->probes[i].ttl > r->end_ttl && r->probes[i].state == P_PENDING) r->probes[i].state = P_NOT_SENT;
  }
  NFlow *f = r->flow;
  f->in_flight -= r->count;
  hold(f->inst, f);
}

static void deliver_all(Instance *inst);
static void arm_timeout(NFlow *f);

static void on_deliver_timer(uv_timer_t *h) {
  Instance *inst = h->data;
  if (inst) deliver_all(inst);
}

/**
 * Finished rounds are reported at most about once per window (the smallest window among the
 * flows holding some): at once when the window since the last report passed, otherwise by a
 * timer DELIVERY_GRACE_MS after it, unless a round start or end after the window carries them.
 * from_js: called from inside JavaScript (a drain it asked for): a zero timer reports instead.
 */
static void maybe_deliver(Instance *inst, int from_js) {
  if (inst->held_window == 0 || !inst->report_cb || inst->defer) return;
  uint64_t now = uv_now(inst->deliver_timer->loop);
  uint64_t end = inst->last_call + (uint64_t)inst->held_window;
  if (now >= end || now < inst->last_call) {
    if (from_js || inst->in_js) uv_timer_start(inst->deliver_timer, on_deliver_timer, 0, 0);
    else deliver_all(inst);
    return;
  }
  uint64_t at = end + DELIVERY_GRACE_MS;
  if (!uv_is_active((uv_handle_t *)inst->deliver_timer) || uv_timer_get_due_in(inst->deliver_timer) > at - now) {
    uv_timer_start(inst->deliver_timer, on_deliver_timer, at - now, 0);
  }
}

/** After a read: ends the native rounds whose answers are all in. */
static void native_after_read(Instance *inst, int from_js) {
  if (inst->ntouched == 0) return;
  for (int i = 0; i < inst->ntouched; i++) {
    NRound *r = inst->touched[i];
    r->touched = 0;
    if (!r->finished && !r->flow->closed && round_complete(r)) round_finish(r);
  }
  inst->ntouched = 0;
  maybe_deliver(inst, from_js);
}

static void drain_all(Instance *inst, int family) {
  for (RawSock *s = inst->head; s; s = s->next) {
    if (s->closed || !s->callback || s->dispatching || !s->polling) continue;
    if (family && s->family != family) continue;
    drain(s, 0);
  }
}

static void free_round(NRound *r) {
  for (int i = 0; i < r->count; i++) free(r->probes[i].reply);
  conf_unref(r->conf);
  free(r);
}

static void on_timeout(uv_timer_t *h) {
  NFlow *f = h->data;
  if (!f || f->closed) return;
  Instance *inst = f->inst;
  // After a stall the timer runs before the loop polls the sockets: replies that came in time
  // may still be queued (their kernel stamps decide).
  inst->defer++;
  drain_all(inst, 0);
  inst->defer--;
  if (f->closed) { maybe_deliver(inst, 0); return; }
  uint64_t now = uv_now(h->loop);
  for (NRound *r = f->head; r; r = r->next) {
    if (r->finished) continue;
    if (r->deadline > now) break;
    round_finish(r);
  }
  arm_timeout(f);
  maybe_deliver(inst, 0);
}

static void arm_timeout(NFlow *f) {
  uint64_t now = uv_now(f->timeout->loop);
  for (NRound *r = f->head; r; r = r->next) {
    if (r->finished) continue;
    uv_timer_start(f->timeout, on_timeout, r->deadline > now ? r->deadline - now : 0, 0);
    return;
  }
  uv_timer_stop(f->timeout);
}

/** One round of the flow now: probes written from the template, sent, queued replies read. */
static void flow_round(NFlow *f) {
  f->last_start = wall_ms();
  Conf *c = f->conf;
  int n = f->nttls;
  if (!c || n == 0 || f->in_flight + n > MAX_PROBES_IN_FLIGHT) return;
  // The sender may have been closed (and freed) since: only a socket still open is used.
  RawSock *alive = f->inst->head;
  while (alive && alive != c->sender) alive = alive->next;
  if (!alive || alive->closed) return;
  size_t need = (size_t)c->len * (size_t)n;
  if (f->inst->sendbuf_len < need) {
    free(f->inst->sendbuf);
    f->inst->sendbuf = malloc(need);
    f->inst->sendbuf_len = need;
  }
  NRound *r = calloc(1, sizeof *r + sizeof(NProbe) * (size_t)n);
  r->flow = f;
  r->serial = f->next_serial++;
  r->time_ms = f->last_start;
  r->seq_start = f->next_seq;
  r->count = n;
  r->conf = c;
  c->refs++;
  r->end_ttl = 1 << 30;
  f->next_seq = seq_at(f->next_seq, n);
  for (int i = 0; i < n; i++) {
    r->probes[i].ttl = f->ttls[i];
    write_probe(c, f->inst->sendbuf + (size_t)i * c->len, f->ttls[i], seq_at(r->seq_start, i));
  }
  if (f->tail) f->tail->next = r; else f->head = r;
  f->tail = r;
  f->in_flight += n;
  for (int i = 0; i < n; i++) {
    double at = now_ns();
    ssize_t sent = sendto(c->sender->fd, f->inst->sendbuf + (size_t)i * c->len, c->len, 0, (struct sockaddr *)&c->to, c->tolen);
    r->probes[i].sent_ns = at;
    r->probes[i].state = sent < 0 ? P_SEND_ERROR : P_PENDING;
  }
  uv_update_time(f->timer.loop);
  r->deadline = uv_now(f->timer.loop) + (uint64_t)(c->timeout_ms + 0.999);
  // On a short path the replies are queued already (the kernel forwards and answers inside
  // sendto on local links): reading them now ends the round in this turn of the loop.
  // A report now would free the round (flat_flow): the tick reports after it.
  f->inst->defer++;
  if (!round_complete(r)) drain_all(f->inst, c->family);
  f->inst->defer--;
  if (f->closed) return;
  if (!r->finished && round_complete(r)) round_finish(r);
  if (!r->finished && !uv_is_active((uv_handle_t *)f->timeout)) arm_timeout(f);
}

static void on_flow_tick(uv_timer_t *h) {
  NFlow *f = h->data;
  if (!f || f->closed) return;
  Instance *inst = f->inst;
  if (inst->prepare && f->pass == inst->pass) { f->deferred = 1; inst->ndeferred++; return; }
  f->pass = inst->pass;
  double t0 = inst->stats ? thread_ns() : 0;
  if (f->repeat > 0) {
    uint64_t now = uv_now(h->loop);
    f->due += f->repeat;
    if (f->due + f->repeat <= now) f->due += ((now - f->due) / f->repeat) * f->repeat;
    uv_timer_start(&f->timer, on_flow_tick, f->due > now ? f->due - now : 0, 0);
  }
  flow_round(f);
  if (inst->stats) inst->tick_ns += thread_ns() - t0;
  inst->ticks++;
  if (!f->closed) maybe_deliver(inst, 0);
}

/**
 * A report's records, flat (no JavaScript object per round or probe; until 2026-11-29 each round
 * was an object with a Float64Array, a Buffer and named properties made through Node-API, whose
 * finalizers and garbage cost the probe thread ~10% of its CPU at 50 rounds a second):
 * - head: HEAD_FIELDS numbers per round: the flow's id (flowOpen), serial, start (wall ms),
 *   configuration id, probe count, done (0/1), and the index of its first probe in probes (-1:
 *   a start-only record, no probes);
 * - probes: PROBE_FIELDS numbers per probe: ttl, state (0 not sent, 1 pending / timed out,
 *   2 send error, 3 answered), rtt ms, the receive socket's protocol, and for a simple reply
 *   (see simple_reply) its kind (K_*), ICMP type and code; 0 as kind: its bytes are in replies;
 * - addrs: 16 bytes per probe, the sender of its reply (IPv4: the first 4);
 * - replies: a JavaScript array (made only when needed), by probe index: the datagram of an
 *   answered probe that is not simple, then its sender's 16 address bytes.
 */
#define HEAD_FIELDS 7

static napi_value set_num(napi_env env, napi_value obj, const char *name, double v) {
  napi_value x;
  napi_create_double(env, v, &x);
  napi_set_named_property(env, obj, name, x);
  return x;
}

typedef struct Flat {
  napi_ref ref[3];  // head, probes, addrs: ArrayBuffers
  void *data[3];
  size_t cap[3];    // bytes
  uint32_t nrounds, nprobes;
  napi_value replies;
} Flat;

// Node-API calls fail while the environment is going away (a worker being terminated still
// runs its timers): then nothing is reported and nothing more is called.
#define OK(call) do { if ((call) != napi_ok) return 0; } while (0)

/** Room for `need` bytes in buffer `i`: a bigger ArrayBuffer (the content copied) when short. */
static int flat_room(napi_env env, Flat *o, int i, size_t need) {
  if (need <= o->cap[i]) return 1;
  size_t cap = o->cap[i] ? o->cap[i] * 2 : 1024;
  while (cap < need) cap *= 2;
  void *data;
  napi_value ab;
  OK(napi_create_arraybuffer(env, cap, &data, &ab));
  if (o->cap[i]) memcpy(data, o->data[i], o->cap[i]);
  if (o->ref[i]) napi_delete_reference(env, o->ref[i]);
  OK(napi_create_reference(env, ab, 1, &o->ref[i]));
  o->data[i] = data;
  o->cap[i] = cap;
  return 1;
}

/**
 * Appends the flow's report: the rounds that started since the last report and those that
 * ended (with their probes), in start order; ended rounds are then forgotten here. live: the
 * probes' states of rounds still in flight too. 0: Node-API failed (nothing more is reported).
 */
static int flat_flow(napi_env env, Flat *o, NFlow *f, int live) {
  NRound **link = &f->head;
  NRound *prev = NULL;
  while (*link) {
    NRound *r = *link;
    if (r->finished || !r->reported_start || live) {
      if (!flat_room(env, o, 0, sizeof(double) * HEAD_FIELDS * (o->nrounds + 1))) return 0;
      double *h = (double *)o->data[0] + HEAD_FIELDS * o->nrounds++;
      h[0] = f->id;
      h[1] = r->serial;
      h[2] = r->time_ms;
      h[3] = r->conf->id;
      h[4] = r->count;
      h[5] = r->finished;
      h[6] = -1;
      if (r->finished || live) {
        size_t n = o->nprobes + (size_t)r->count;
        if (!flat_room(env, o, 1, sizeof(double) * PROBE_FIELDS * n)) return 0;
        if (!flat_room(env, o, 2, 16 * n)) return 0;
        h[6] = o->nprobes;
        double *d = (double *)o->data[1] + PROBE_FIELDS * (size_t)o->nprobes;
        unsigned char *a = (unsigned char *)o->data[2] + 16 * (size_t)o->nprobes;
        for (int i = 0; i < r->count; i++) {
          NProbe *p = &r->probes[i];
          double *q = d + PROBE_FIELDS * i;
          q[0] = p->ttl;
          q[1] = p->state;
          q[2] = p->rtt_ms;
          q[3] = p->sock_protocol;
          q[4] = p->reply ? 0 : p->kind;
          q[5] = p->icmp_type;
          q[6] = p->icmp_code;
          memcpy(a + 16 * i, p->responder, 16);
          if (r->finished && p->reply) {
            if (!o->replies) OK(napi_create_array(env, &o->replies));
            napi_value b;
            OK(napi_create_buffer_copy(env, (size_t)p->reply_len + 16, p->reply, NULL, &b));
            OK(napi_set_element(env, o->replies, o->nprobes + (uint32_t)i, b));
          }
        }
        o->nprobes = (uint32_t)n;
      }
      r->reported_start = 1;
    }
    if (r->finished) {
      *link = r->next;
      if (f->tail == r) f->tail = prev;
      free_round(r);
    } else {
      prev = r;
      link = &r->next;
    }
  }
  f->has_finished = 0;
  return 1;
}

/** argv[0..4] for JavaScript: the round count, the three ArrayBuffers (or undefined), replies. */
static int flat_args(napi_env env, Flat *o, napi_value *argv) {
  OK(napi_create_uint32(env, o->nrounds, &argv[0]));
  napi_value undef;
  OK(napi_get_undefined(env, &undef));
  for (int i = 0; i < 3; i++) {
    argv[1 + i] = undef;
    if (o->ref[i]) OK(napi_get_reference_value(env, o->ref[i], &argv[1 + i]));
  }
  argv[4] = o->replies ? o->replies : undef;
  return 1;
}

/** Reports every flow holding finished rounds in one call of report_cb (see Flat). */
static void deliver_all(Instance *inst) {
  if (!inst->report_cb) return;
  uv_timer_stop(inst->deliver_timer);
  inst->held_window = 0;
  napi_env env = inst->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  if (!inst->flat) inst->flat = calloc(1, sizeof *inst->flat);
  Flat *o = inst->flat;
  o->nrounds = o->nprobes = 0;
  o->replies = NULL;
  // Flows that finish rounds while JavaScript runs (below) are held anew for the next delivery.
  int nheld = inst->nheld;
  inst->nheld = 0;
  for (int i = 0; i < nheld; i++) {
    NFlow *f = inst->held[i];
    if (f->closed || !f->has_finished) continue;
    if (!flat_flow(env, o, f, 0)) { napi_close_handle_scope(env, scope); return; }
  }
  inst->last_call = uv_now(inst->deliver_timer->loop);
  napi_value argv[5];
  if (o->nrounds > 0 && flat_args(env, o, argv)) {
    napi_value cb, global, result;
    napi_get_reference_value(env, inst->report_cb, &cb);
    napi_get_global(env, &global);
    inst->in_js++;
    double t0 = inst->stats ? thread_ns() : 0;
    napi_status st = napi_make_callback(env, inst->report_ctx, global, cb, 5, argv, &result);
    if (inst->stats) inst->report_ns += thread_ns() - t0;
    inst->reports++;
    inst->in_js--;
    if (st != napi_ok) {
      napi_value err;
      if (napi_get_and_clear_last_exception(env, &err) == napi_ok) napi_fatal_exception(env, err);
    }
  }
  o->replies = NULL;
  napi_close_handle_scope(env, scope);
}

static Instance *instance(napi_env env) {
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
  return inst;
}

static NFlow *get_flow(napi_env env, napi_value v) {
  NFlow *f = NULL;
  if (napi_get_value_external(env, v, (void **)&f) != napi_ok || !f || f->closed) {
    napi_throw_error(env, NULL, "flow is closed");
    return NULL;
  }
  return f;
}

// nativeRounds(callback(reports)): where reports of every flow go (one call per delivery).
static napi_value NativeRounds(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Instance *inst = instance(env);
  if (inst->report_cb) napi_delete_reference(env, inst->report_cb);
  napi_create_reference(env, argv[0], 1, &inst->report_cb);
  if (!inst->report_ctx) {
    napi_value name;
    napi_create_string_latin1(env, "hopwatch:nativeRounds", NAPI_AUTO_LENGTH, &name);
    napi_async_init(env, NULL, name, &inst->report_ctx);
  }
  return NULL;
}

// flowOpen(id, flowId, windowMs) -> flow: a stopped native flow (no configuration yet).
static napi_value FlowOpen(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Instance *inst = instance(env);
  double id = 0;
  int32_t flow_id = 0, window = 20;
  napi_get_value_double(env, argv[0], &id);
  napi_get_value_int32(env, argv[1], &flow_id);
  napi_get_value_int32(env, argv[2], &window);
  if (flow_id < 0 || flow_id > 0xffff || (inst->by_flow_id && inst->by_flow_id[flow_id])) {
    napi_throw_error(env, NULL, "flowOpen: flow id in use");
    return NULL;
  }
  uv_loop_t *loop = NULL;
  napi_get_uv_event_loop(env, &loop);
  if (!inst->by_flow_id) inst->by_flow_id = calloc(65536, sizeof *inst->by_flow_id);
  if (!inst->deliver_timer) {
    inst->env = env;
    inst->deliver_timer = malloc(sizeof *inst->deliver_timer);
    uv_timer_init(loop, inst->deliver_timer);
    inst->deliver_timer->data = inst;
    uv_unref((uv_handle_t *)inst->deliver_timer);
  }
  NFlow *f = calloc(1, sizeof *f);
  f->inst = inst;
  f->env = env;
  f->id = id;
  f->flow_id = flow_id;
  f->window_ms = window > 0 ? window : 1;
  f->next_seq = 1;
  uv_timer_init(loop, &f->timer);
  f->timer.data = f;
  f->timeout = malloc(sizeof *f->timeout);
  uv_timer_init(loop, f->timeout);
  f->timeout->data = f;
  f->next = inst->flows;
  inst->flows = f;
  inst->by_flow_id[flow_id] = f;
  napi_value ext;
  napi_create_external(env, f, NULL, NULL, &ext);
  return ext;
}

// flowConfigure(flow, confId, sender, template: Buffer, params: Float64Array, destination):
// the probes of the rounds that start from now on. params: family, protocol (1 icmp, 2 udp,
// 3 tcp), destination port, timeout ms, transport offset, IPv4 header sum, transport sum,
// wanted ICMP checksum, TCP data bytes (ProbeTemplate.nativeParams()).
static napi_value FlowConfigure(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (!f) return NULL;
  int32_t id = 0;
  napi_get_value_int32(env, argv[1], &id);
  RawSock *sender = get_sock(env, argv[2]);
  if (!sender) return NULL;
  void *tdata; size_t tlen;
  napi_get_buffer_info(env, argv[3], &tdata, &tlen);
  napi_typedarray_type type;
  size_t plen = 0;
  void *pdata = NULL;
  napi_get_typedarray_info(env, argv[4], &type, &plen, &pdata, NULL, NULL);
  char addr[64];
  size_t alen = 0;
  napi_get_value_string_latin1(env, argv[5], addr, sizeof addr, &alen);
  if (type != napi_float64_array || plen < 9 || tlen == 0 || tlen > 65536 / 4) {
    napi_throw_error(env, NULL, "flowConfigure: bad template or parameters");
    return NULL;
  }
  double *p = pdata;
  Conf *c = calloc(1, sizeof *c);
  c->refs = 1;
  c->id = id;
  c->family = (int)p[0];
  c->protocol = (int)p[1];
  c->dest_port = (int)p[2];
  c->timeout_ms = p[3];
  c->transport = (int)p[4];
  c->ip_sum = (uint32_t)p[5];
  c->transport_sum = (uint32_t)p[6];
  c->wanted = (uint32_t)p[7];
  c->tcp_data = (int)p[8];
  c->dscp = plen > 9 ? (int)p[9] : 0;
  c->sender = sender;
  c->len = (int)tlen;
  c->tmpl = malloc(tlen);
  memcpy(c->tmpl, tdata, tlen);
  if (!to_sockaddr(c->family, addr, &c->to, &c->tolen)) {
    conf_unref(c);
    return throw_errno(env, "bad address", EINVAL);
  }
  if (c->family == 6) memcpy(c->dest, &((struct sockaddr_in6 *)&c->to)->sin6_addr, 16);
  else memcpy(c->dest, &((struct sockaddr_in *)&c->to)->sin_addr, 4);
  conf_unref(f->conf);
  f->conf = c;
  return NULL;
}

// flowTtls(flow, ttls: Uint8Array): the TTLs of the rounds that start from now on.
static napi_value FlowTtls(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (!f) return NULL;
  napi_typedarray_type type;
  size_t n = 0;
  void *data = NULL;
  napi_get_typedarray_info(env, argv[1], &type, &n, &data, NULL, NULL);
  if (type != napi_uint8_array || n > MAX_TTLS) {
    napi_throw_error(env, NULL, "flowTtls: too many TTLs");
    return NULL;
  }
  memcpy(f->ttls, data, n);
  f->nttls = (int)n;
  return NULL;
}

// flowRun(flow, repeatMs, windowMs): a round now, then one every repeatMs on a grid counted
// from now (as the ticker: a late tick does not push the later ones back); windowMs: how long
// its ended rounds may be held for the next report (see maybe_deliver).
static napi_value FlowRun(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (!f) return NULL;
  double repeat = 0;
  int32_t window = 0;
  napi_get_value_double(env, argv[1], &repeat);
  napi_get_value_int32(env, argv[2], &window);
  if (window > 0) f->window_ms = window;
  if (!(repeat >= 1)) repeat = 1;
  f->repeat = (uint64_t)repeat;
  // due: the next tick's time (as TickerStart: on_flow_tick adds repeat before it re-arms). The
  // grid starts on a multiple of COALESCE_MS of the loop's clock (the second round comes up to
  // that much later than one interval after the first), so flows whose intervals are multiples
  // of it tick in the same pass of the loop: one wake-up for their sends, not one per flow.
  uint64_t now = uv_now(f->timer.loop);
  uint64_t slot = f->repeat < COALESCE_MS ? f->repeat : COALESCE_MS;
  f->due = now + f->repeat;
  f->due += (slot - f->due % slot) % slot;
  uv_timer_start(&f->timer, on_flow_tick, f->due - now, 0);
  f->armed = 1;
  f->deferred = 0;
  f->inst->in_js++;
  flow_round(f);
  f->inst->in_js--;
  if (!f->closed) maybe_deliver(f->inst, 1);
  return NULL;
}

static napi_value FlowStop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (f) { uv_timer_stop(&f->timer); f->armed = 0; f->deferred = 0; }
  return NULL;
}

// flowTake(flow, live) -> [rounds, head, probes, addrs, replies] (see Flat), without waiting for
// the delivery window; undefined when Node-API fails (the environment going away). Rare (stop,
// waitingTtls): its ArrayBuffers are its own, not the delivery's.
static napi_value FlowTake(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (!f) return NULL;
  bool live = false;
  napi_get_value_bool(env, argv[1], &live);
  Flat o;
  memset(&o, 0, sizeof o);
  napi_value out = NULL, parts[5];
  int ok = flat_flow(env, &o, f, live) && flat_args(env, &o, parts);
  if (ok && napi_create_array_with_length(env, 5, &out) == napi_ok) {
    for (uint32_t i = 0; i < 5; i++) napi_set_element(env, out, i, parts[i]);
  } else {
    out = NULL;
  }
  for (int i = 0; i < 3; i++) if (o.ref[i]) napi_delete_reference(env, o.ref[i]);
  return out;
}

// flowLastStart(flow) -> wall ms of the flow's last round start (0: none).
static napi_value FlowLastStart(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = get_flow(env, argv[0]);
  if (!f) return NULL;
  napi_value out;
  napi_create_double(env, f->last_start, &out);
  return out;
}

static void flow_close(NFlow *f, Instance *inst) {
  if (f->closed) return;
  f->closed = 1;
  // Its memory goes with its timer handle: no delivery may visit it after that.
  for (int i = 0; i < inst->nheld; i++) if (inst->held[i] == f) inst->held[i--] = inst->held[--inst->nheld];
  if (inst->by_flow_id && inst->by_flow_id[f->flow_id] == f) inst->by_flow_id[f->flow_id] = NULL;
  NFlow **p = &inst->flows;
  while (*p && *p != f) p = &(*p)->next;
  if (*p) *p = f->next;
  uv_timer_stop(&f->timer);
  uv_timer_stop(f->timeout);
  f->timeout->data = NULL;
  uv_close((uv_handle_t *)f->timeout, (uv_close_cb)(void *)free);
  f->timer.data = NULL;
  conf_unref(f->conf);
  f->conf = NULL;
}

// The flow's rounds are freed when its handle closes (a read may still hold them).
static void free_flow_rounds(NFlow *f) {
  for (NRound *r = f->head; r;) {
    NRound *next = r->next;
    free_round(r);
    r = next;
  }
  f->head = f->tail = NULL;
}

static napi_value FlowClose(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  NFlow *f = NULL;
  Instance *inst = instance(env);
  if (napi_get_value_external(env, argv[0], (void **)&f) == napi_ok && f && !f->closed) {
    flow_close(f, inst);
    // Not inside a read: nothing else holds its rounds.
    if (inst->ntouched == 0) free_flow_rounds(f);
    else {
      for (int i = 0; i < inst->ntouched; i++) if (inst->touched[i]->flow == f) inst->touched[i] = inst->touched[--inst->ntouched], i--;
      free_flow_rounds(f);
    }
    uv_close((uv_handle_t *)&f->timer, (uv_close_cb)(void *)free);
  }
  return NULL;
}

// nativeStats() -> [tick ns, report ns, ticks, reports]: thread CPU in native ticks and in
// report calls since the addon loaded on this thread (for measurements).
static napi_value NativeStats(napi_env env, napi_callback_info info) {
  Instance *inst = instance(env);
  napi_value out, v;
  napi_create_array_with_length(env, 4, &out);
  double vals[4] = { inst->tick_ns, inst->report_ns, inst->ticks, inst->reports };
  for (uint32_t i = 0; i < 4; i++) { napi_create_double(env, vals[i], &v); napi_set_element(env, out, i, v); }
  return out;
}

// matchKey(family, socketProtocol, datagram, from: Buffer(16), dscp) -> key or null: the C
// reading of a reply, and whether it is simple for a trace sending `dscp` (tests compare it
// with engine/codec/reply.ts on the same bytes).
static napi_value MatchKey(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t family = 0, proto = 0;
  napi_get_value_int32(env, argv[0], &family);
  napi_get_value_int32(env, argv[1], &proto);
  void *data; size_t len;
  napi_get_buffer_info(env, argv[2], &data, &len);
  void *from; size_t flen;
  napi_get_buffer_info(env, argv[3], &from, &flen);
  unsigned char f16[16] = {0};
  memcpy(f16, from, flen < 16 ? flen : 16);
  Key k;
  napi_value out;
  if (!reply_key(family, proto, data, (int)len, f16, &k)) {
    napi_get_null(env, &out);
    return out;
  }
  napi_create_object(env, &out);
  set_num(env, out, "protocol", k.protocol);
  set_num(env, out, "flowId", k.flow_id);
  set_num(env, out, "probeSeq", k.seq);
  set_num(env, out, "destinationPort", k.dest_port);
  set_num(env, out, "kind", k.kind);
  napi_value b;
  napi_create_buffer_copy(env, family == 4 ? 4 : 16, k.dest, NULL, &b);
  napi_set_named_property(env, out, "destination", b);
  napi_create_buffer_copy(env, family == 4 ? 4 : 16, k.responder, NULL, &b);
  napi_set_named_property(env, out, "responder", b);
  if (k.rst) set_num(env, out, "tcpResetAcked", k.acked);
  set_num(env, out, "icmpType", k.icmp_type);
  set_num(env, out, "icmpCode", k.icmp_code);
  int32_t dscp = 0;
  if (argc > 4) napi_get_value_int32(env, argv[4], &dscp);
  napi_value simple;
  napi_get_boolean(env, simple_reply(&k, dscp), &simple);
  napi_set_named_property(env, out, "simple", simple);
  return out;
}

// writeProbe(template, params, ttl, probeSeq) -> Buffer: the C template writer (tests compare
// it with ProbeTemplate.write).
static napi_value WriteProbeNative(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *tdata; size_t tlen;
  napi_get_buffer_info(env, argv[0], &tdata, &tlen);
  napi_typedarray_type type;
  size_t plen = 0;
  void *pdata = NULL;
  napi_get_typedarray_info(env, argv[1], &type, &plen, &pdata, NULL, NULL);
  int32_t ttl = 0, seq = 0;
  napi_get_value_int32(env, argv[2], &ttl);
  napi_get_value_int32(env, argv[3], &seq);
  double *p = pdata;
  Conf c = {0};
  c.family = (int)p[0]; c.protocol = (int)p[1]; c.transport = (int)p[4];
  c.ip_sum = (uint32_t)p[5]; c.transport_sum = (uint32_t)p[6]; c.wanted = (uint32_t)p[7];
  c.tmpl = tdata; c.len = (int)tlen;
  void *out;
  napi_value b;
  napi_create_buffer(env, tlen, &out, &b);
  write_probe(&c, out, ttl, seq);
  return b;
}

// ---------------------------------------------------------------------------------------------
// One tick per pass. libuv before 1.48 (Node 20 ships 1.46) runs timers in one pass until none
// is due, checking again after each callback; a callback that moves the loop's clock on
// (flow_round does, for its deadline; so does any JavaScript setTimeout) makes timers due again
// inside the same pass. When the thread is behind (a loaded machine, many fast traces) the pass
// never ends: the loop never polls, so the port's messages (start, stop, the link closing on
// shutdownEngine) and the worker's termination wait for ever (found with 240 traces at 50 ms
// beside busy processes). So a ticker or flow ticks at most once per pass of the loop: a second
// tick in the same pass is deferred to the next pass, re-armed from here, the prepare phase
// (after the timers, before the poll). Its grid is unchanged: it runs one pass late.
static void on_prepare(uv_prepare_t *h) {
  Instance *inst = h->data;
  if (!inst) return;
  inst->pass++;
  if (inst->ndeferred == 0) return;
  inst->ndeferred = 0;
  for (Ticker *t = inst->tickers; t; t = t->next) {
    if (t->deferred) { t->deferred = 0; uv_timer_start(&t->timer, on_tick, 0, 0); }
  }
  for (NFlow *f = inst->flows; f; f = f->next) {
    if (f->deferred) { f->deferred = 0; if (f->armed) uv_timer_start(&f->timer, on_flow_tick, 0, 0); }
  }
}

static void cleanup(void *arg) {
  Instance *inst = arg;
  if (inst->prepare) {
    uv_prepare_stop(inst->prepare);
    inst->prepare->data = NULL;
    uv_close((uv_handle_t *)inst->prepare, (uv_close_cb)(void *)free);
    inst->prepare = NULL;
  }
  while (inst->head) close_sock(inst->head, inst, 1);
  while (inst->tickers) close_ticker(inst->tickers, inst, 1);
  while (inst->flows) {
    NFlow *f = inst->flows;
    flow_close(f, inst);
    free_flow_rounds(f);
    uv_close((uv_handle_t *)&f->timer, (uv_close_cb)(void *)free);
  }
  if (inst->deliver_timer) {
    inst->deliver_timer->data = NULL;
    uv_close((uv_handle_t *)inst->deliver_timer, (uv_close_cb)(void *)free);
    inst->deliver_timer = NULL;
  }
  inst->report_cb = NULL;
  free(inst->by_flow_id);
  inst->by_flow_id = NULL;
  free(inst->touched);
  inst->touched = NULL;
  free(inst->held);
  inst->held = NULL;
  inst->nheld = inst->held_cap = 0;
  free(inst->sendbuf);
  inst->sendbuf = NULL;
  // The environment is going away: its references with it (deleting them now is not allowed).
  free(inst->flat);
  inst->flat = NULL;
  // inst itself is freed by the instance-data finalizer.
}

static void free_instance(napi_env env, void *data, void *hint) { free(data); }

NAPI_MODULE_INIT() {
  Instance *inst = calloc(1, sizeof *inst);
  const char *stats = getenv("HOPWATCH_NATIVE_STATS");
  inst->stats = stats && strcmp(stats, "1") == 0;
  napi_set_instance_data(env, inst, free_instance, NULL);
  napi_add_env_cleanup_hook(env, cleanup, inst);
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(env, &loop) == napi_ok && loop) {
    inst->pass = 1;
    inst->prepare = malloc(sizeof *inst->prepare);
    uv_prepare_init(loop, inst->prepare);
    inst->prepare->data = inst;
    uv_prepare_start(inst->prepare, on_prepare);
    // It counts passes; it must not keep an idle loop (a worker with no traces) alive.
    uv_unref((uv_handle_t *)inst->prepare);
  }
  napi_property_descriptor props[] = {
    {"open", NULL, Open, NULL, NULL, NULL, napi_default, NULL},
    {"setOption", NULL, SetOption, NULL, NULL, NULL, napi_default, NULL},
    {"send", NULL, Send, NULL, NULL, NULL, napi_default, NULL},
    {"sendBatch", NULL, SendBatch, NULL, NULL, NULL, napi_default, NULL},
    {"pathMtu", NULL, PathMtu, NULL, NULL, NULL, napi_default, NULL},
    {"receive", NULL, Receive, NULL, NULL, NULL, napi_default, NULL},
    {"drain", NULL, Drain, NULL, NULL, NULL, napi_default, NULL},
    {"unref", NULL, Unref, NULL, NULL, NULL, napi_default, NULL},
    {"close", NULL, Close, NULL, NULL, NULL, napi_default, NULL},
    {"now", NULL, Now, NULL, NULL, NULL, napi_default, NULL},
    {"setThreadName", NULL, SetThreadName, NULL, NULL, NULL, napi_default, NULL},
    {"ticker", NULL, NewTicker, NULL, NULL, NULL, napi_default, NULL},
    {"tickerStart", NULL, TickerStart, NULL, NULL, NULL, napi_default, NULL},
    {"tickerStop", NULL, TickerStop, NULL, NULL, NULL, napi_default, NULL},
    {"tickerClose", NULL, TickerClose, NULL, NULL, NULL, napi_default, NULL},
    {"nativeRounds", NULL, NativeRounds, NULL, NULL, NULL, napi_default, NULL},
    {"flowOpen", NULL, FlowOpen, NULL, NULL, NULL, napi_default, NULL},
    {"flowConfigure", NULL, FlowConfigure, NULL, NULL, NULL, napi_default, NULL},
    {"flowTtls", NULL, FlowTtls, NULL, NULL, NULL, napi_default, NULL},
    {"flowRun", NULL, FlowRun, NULL, NULL, NULL, napi_default, NULL},
    {"flowStop", NULL, FlowStop, NULL, NULL, NULL, napi_default, NULL},
    {"flowTake", NULL, FlowTake, NULL, NULL, NULL, napi_default, NULL},
    {"flowLastStart", NULL, FlowLastStart, NULL, NULL, NULL, napi_default, NULL},
    {"flowClose", NULL, FlowClose, NULL, NULL, NULL, napi_default, NULL},
    {"matchKey", NULL, MatchKey, NULL, NULL, NULL, napi_default, NULL},
    {"nativeStats", NULL, NativeStats, NULL, NULL, NULL, napi_default, NULL},
    {"writeProbe", NULL, WriteProbeNative, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
