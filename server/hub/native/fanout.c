// One WebSocket frame written to many sockets, the writes shared among threads (docs/hub.md
// "Writes on several threads"). A hub event for 5,000 consoles is 5,000 send() calls, each
// mostly kernel time (on loopback the receiver's TCP work runs inside the sender's call), so
// one thread writing them all was the HostUpdated delay's tail. JavaScript calls writeAll
// synchronously: while it runs no JavaScript and no libuv I/O of this process touches those
// sockets, so no write can come between, and no descriptor can be closed and reused under it.
// Each send is non-blocking: what a socket does not take at once goes back to JavaScript,
// which queues the rest on the socket in order.
#define NAPI_VERSION 8
#include <node_api.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

// Below this many sockets a thread costs more to start than it saves.
#define MIN_PER_THREAD 64
#define MAX_THREADS 8
// Sockets a thread takes at a time. The threads take turns from one counter rather than a
// fixed share each: a thread the scheduler leaves waiting (the host's other processes want the
// same cores) holds back at most this many, the others write the rest.
#define CHUNK 16

typedef struct {
  const int32_t *fds;
  int32_t *written;
  size_t count;
  _Atomic size_t next;
  const uint8_t *frame;
  size_t length;
} Job;

static void *write_chunks(void *arg) {
  Job *job = arg;
  for (;;) {
    size_t from = atomic_fetch_add(&job->next, CHUNK);
    if (from >= job->count) return NULL;
    size_t to = from + CHUNK < job->count ? from + CHUNK : job->count;
    for (size_t i = from; i < to; i++) {
      ssize_t n;
      do n = send(job->fds[i], job->frame, job->length, MSG_DONTWAIT | MSG_NOSIGNAL);
      while (n < 0 && errno == EINTR);
      job->written[i] = n >= 0 ? (int32_t)n : -errno;
    }
  }
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static int int32_array(napi_env env, napi_value value, int32_t **data, size_t *length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return 0;
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  if (napi_get_typedarray_info(env, value, &type, length, (void **)data, &buffer, &offset) != napi_ok) return 0;
  return type == napi_int32_array;
}

// writeAll(fds: Int32Array, count: number, frame: Buffer, written: Int32Array, threads: number):
// sends frame to fds[0..count) and sets written[i] to the bytes each socket took, or -errno.
static napi_value write_all(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5) return fail(env, "writeAll takes 5 arguments");
  int32_t *fds, *written;
  size_t fd_length, written_length;
  if (!int32_array(env, argv[0], &fds, &fd_length)) return fail(env, "fds must be an Int32Array");
  if (!int32_array(env, argv[3], &written, &written_length)) return fail(env, "written must be an Int32Array");
  int32_t count_arg, threads;
  if (napi_get_value_int32(env, argv[1], &count_arg) != napi_ok || count_arg < 0) return fail(env, "count must be a number >= 0");
  if (napi_get_value_int32(env, argv[4], &threads) != napi_ok) return fail(env, "threads must be a number");
  bool is_buffer = false;
  napi_is_buffer(env, argv[2], &is_buffer);
  if (!is_buffer) return fail(env, "frame must be a Buffer");
  void *frame;
  size_t length;
  napi_get_buffer_info(env, argv[2], &frame, &length);
  size_t count = (size_t)count_arg;
  if (count > fd_length || count > written_length) return fail(env, "count is larger than fds or written");

  size_t useful = count / MIN_PER_THREAD;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  if ((size_t)threads > useful) threads = (int32_t)useful;
  if (threads < 1) threads = 1;
  Job job = {fds, written, count, 0, frame, length};
  pthread_t ids[MAX_THREADS];
  int started[MAX_THREADS] = {0};
  // The calling thread writes too; a helper that cannot start leaves its part to the others.
  for (int32_t t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, write_chunks, &job) == 0;
  write_chunks(&job);
  for (int32_t t = 1; t < threads; t++)
    if (started[t]) pthread_join(ids[t], NULL);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "writeAll", NAPI_AUTO_LENGTH, write_all, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "writeAll", fn) != napi_ok) return NULL;
  return exports;
}
