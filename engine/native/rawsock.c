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
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <uv.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

typedef struct RawSock {
  int fd;
  int family;
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
  struct Ticker *next;
} Ticker;

typedef struct { RawSock *head; Ticker *tickers; } Instance;

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
static void drain(RawSock *s) {
  napi_env env = s->env;
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
    }
    napi_value argv[1];
    napi_create_int32(env, n, &argv[0]);
    napi_value result;
    if (napi_call_function(env, global, cb, 1, argv, &result) != napi_ok) {
      napi_value err;
      if (napi_get_and_clear_last_exception(env, &err) == napi_ok) napi_fatal_exception(env, err);
      break;
    }
    total += n;
    // A short batch emptied the queue: spare the read that would only say EAGAIN.
    if (n < BATCH) break;
  }
  s->dispatching = 0;
  napi_close_handle_scope(env, scope);
  if (s->closed) free(s);
}

static void on_readable(uv_poll_t *h, int status, int events) {
  RawSock *s = (RawSock *)h->data;
  if (!s || status < 0 || s->closed || !s->callback) return;
  drain(s);
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
  s->env = env;
  Instance *inst = NULL;
  napi_get_instance_data(env, (void **)&inst);
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
  if (s && s->callback && !s->dispatching) drain(s);
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
  if (inst) { t->next = inst->tickers; inst->tickers = t; }
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
  t->due = uv_now(t->timer.loop) + (uint64_t)delay;
  uv_timer_start(&t->timer, on_tick, (uint64_t)delay, 0);
  return NULL;
}

static napi_value TickerStop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Ticker *t = get_ticker(env, argv[0]);
  if (t) uv_timer_stop(&t->timer);
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

static void cleanup(void *arg) {
  Instance *inst = arg;
  while (inst->head) close_sock(inst->head, inst, 1);
  while (inst->tickers) close_ticker(inst->tickers, inst, 1);
  // inst itself is freed by the instance-data finalizer.
}

static void free_instance(napi_env env, void *data, void *hint) { free(data); }

NAPI_MODULE_INIT() {
  Instance *inst = calloc(1, sizeof *inst);
  napi_set_instance_data(env, inst, free_instance, NULL);
  napi_add_env_cleanup_hook(env, cleanup, inst);
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
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
