/* A stand-in for NCCL on host memory, for test_distributed_nccl.py: the signatures are nccl.h's,
 * so dyng's ctypes binding is checked call by call (argument order, the unique id passed by
 * value, the group's pairing of sends and receives) on machines without a GPU. The ranks of a
 * world are threads of one process, each joining with the same id: at ncclGroupEnd a thread
 * posts its group's sends to the receivers' mailboxes, then takes each of its receives from the
 * sender's mailbox in order (waiting for it, as NCCL does), and a receive whose length is not
 * the matching send's fails the group. Each call appends its name to a log the test reads
 * (stub_log). ncclAllReduce serves a world of one only. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  char internal[128];
} ncclUniqueId;
typedef void* ncclComm_t;
typedef void* cudaStream_t;

enum { ok = 0, system_error = 2, invalid_argument = 4, invalid_usage = 5 };
enum { max_ranks = 8, max_worlds = 4, max_pending = 64 };

struct message {
  size_t bytes;
  struct message* next;
  unsigned char data[];
};

struct comm {
  struct world* world;
  int rank, alive;
};

struct world {
  unsigned char id[128];
  int nranks;
  struct comm comms[max_ranks];
  struct message *head[max_ranks][max_ranks], *tail[max_ranks][max_ranks]; /* [from][to] */
};

struct pending {
  const void* send;
  void* recv;
  size_t bytes;
  int peer;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static char log_text[16384];
static unsigned char joined_id[128];
static int made_ids = 0, world_count = 0;
static struct world worlds[max_worlds];

/* One group at a time per thread, as NCCL's group calls are per thread. */
static __thread struct pending sends[max_pending], recvs[max_pending];
static __thread int send_count = 0, recv_count = 0, group_depth = 0;
static __thread struct comm* group_comm = NULL;

static void note(const char* name) {
  pthread_mutex_lock(&lock);
  strncat(log_text, name, sizeof log_text - strlen(log_text) - 2);
  strncat(log_text, " ", sizeof log_text - strlen(log_text) - 1);
  pthread_mutex_unlock(&lock);
}

static size_t element_bytes(int type) {
  static const size_t sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8};
  return type >= 0 && type <= 8 ? sizes[type] : 0;
}

const char* stub_log(void) { return log_text; }
void stub_joined_id(unsigned char* out) { memcpy(out, joined_id, 128); }

void stub_reset(void) {
  pthread_mutex_lock(&lock);
  log_text[0] = 0;
  for (int w = 0; w < world_count; ++w) {
    for (int a = 0; a < max_ranks; ++a) {
      for (int b = 0; b < max_ranks; ++b) {
        for (struct message *m = worlds[w].head[a][b], *next; m != NULL; m = next) {
          next = m->next;
          free(m);
        }
      }
    }
  }
  memset(worlds, 0, sizeof worlds);
  world_count = 0;
  pthread_mutex_unlock(&lock);
  send_count = recv_count = group_depth = 0;
  group_comm = NULL;
}

const char* ncclGetErrorString(int result) {
  switch (result) {
    case ok: return "no error";
    case system_error: return "stub: system error (a receive waited 5 s for its send)";
    case invalid_argument: return "stub: invalid argument";
    case invalid_usage: return "stub: invalid usage";
    default: return "stub: other error";
  }
}

int ncclGetVersion(int* version) {
  note("ncclGetVersion");
  *version = 22306;
  return ok;
}

int ncclGetUniqueId(ncclUniqueId* id) {
  note("ncclGetUniqueId");
  pthread_mutex_lock(&lock);
  made_ids++;
  for (int i = 0; i < 128; i++) id->internal[i] = (char)(i * 7 + made_ids);
  pthread_mutex_unlock(&lock);
  return ok;
}

int ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  note("ncclCommInitRank");
  if (nranks < 1 || nranks > max_ranks || rank < 0 || rank >= nranks) return invalid_argument;
  pthread_mutex_lock(&lock);
  memcpy(joined_id, id.internal, 128);
  struct world* world = NULL;
  for (int w = 0; w < world_count && world == NULL; ++w) {
    if (memcmp(worlds[w].id, id.internal, 128) == 0) world = &worlds[w];
  }
  if (world == NULL && world_count < max_worlds) {
    world = &worlds[world_count++];
    memcpy(world->id, id.internal, 128);
    world->nranks = nranks;
  }
  int result = ok;
  if (world == NULL || world->nranks != nranks || world->comms[rank].alive) {
    result = invalid_usage;
  } else {
    world->comms[rank] = (struct comm){world, rank, 1};
    *comm = &world->comms[rank];
  }
  pthread_mutex_unlock(&lock);
  return result;
}

static struct comm* live(ncclComm_t handle) {
  struct comm* c = (struct comm*)handle;
  return c != NULL && c->alive ? c : NULL;
}

static int end_comm(ncclComm_t handle) {
  pthread_mutex_lock(&lock);
  struct comm* c = live(handle);
  if (c != NULL) c->alive = 0;
  pthread_mutex_unlock(&lock);
  return c != NULL ? ok : invalid_argument;
}

int ncclCommDestroy(ncclComm_t comm) {
  note("ncclCommDestroy");
  return end_comm(comm);
}

int ncclCommAbort(ncclComm_t comm) {
  note("ncclCommAbort");
  return end_comm(comm);
}

int ncclCommGetAsyncError(ncclComm_t comm, int* error) {
  note("ncclCommGetAsyncError");
  *error = ok;
  return live(comm) != NULL ? ok : invalid_argument;
}

int ncclGroupStart(void) {
  note("ncclGroupStart");
  group_depth++;
  return ok;
}

static int queue(struct pending* list, int* listed, const void* send, void* recv, size_t elements,
                 int type, int peer, ncclComm_t comm) {
  struct comm* c = live(comm);
  if (c == NULL || element_bytes(type) == 0 || peer < 0 || peer >= c->world->nranks ||
      group_depth == 0 || *listed == max_pending || (group_comm != NULL && group_comm != c)) {
    return invalid_argument;
  }
  group_comm = c;
  list[(*listed)++] = (struct pending){send, recv, elements * element_bytes(type), peer};
  return ok;
}

int ncclSend(const void* buffer, size_t count, int type, int peer, ncclComm_t comm,
             cudaStream_t s) {
  (void)s;
  note("ncclSend");
  return queue(sends, &send_count, buffer, NULL, count, type, peer, comm);
}

int ncclRecv(void* buffer, size_t count, int type, int peer, ncclComm_t comm, cudaStream_t s) {
  (void)s;
  note("ncclRecv");
  return queue(recvs, &recv_count, NULL, buffer, count, type, peer, comm);
}

/* Posts the group's sends, then takes its receives in order; caller holds the lock. */
static int deliver(struct comm* c) {
  struct world* w = c->world;
  for (int i = 0; i < send_count; ++i) {
    struct message* m = malloc(sizeof *m + sends[i].bytes);
    if (m == NULL) return system_error;
    m->bytes = sends[i].bytes;
    m->next = NULL;
    memcpy(m->data, sends[i].send, sends[i].bytes);
    struct message** tail = &w->tail[c->rank][sends[i].peer];
    if (*tail != NULL) {
      (*tail)->next = m;
    } else {
      w->head[c->rank][sends[i].peer] = m;
    }
    *tail = m;
  }
  pthread_cond_broadcast(&arrived);
  int result = ok;
  for (int i = 0; i < recv_count; ++i) {
    const int from = recvs[i].peer;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    while (w->head[from][c->rank] == NULL) {
      if (pthread_cond_timedwait(&arrived, &lock, &until) != 0) return system_error;
    }
    struct message* m = w->head[from][c->rank];
    w->head[from][c->rank] = m->next;
    if (m->next == NULL) w->tail[from][c->rank] = NULL;
    if (m->bytes != recvs[i].bytes) {
      result = invalid_usage;
    } else {
      memcpy(recvs[i].recv, m->data, m->bytes);
    }
    free(m);
  }
  return result;
}

int ncclGroupEnd(void) {
  note("ncclGroupEnd");
  if (group_depth == 0) return invalid_usage;
  if (--group_depth > 0) return ok;
  int result = ok;
  if (group_comm != NULL) {
    pthread_mutex_lock(&lock);
    result = deliver(group_comm);
    pthread_mutex_unlock(&lock);
  }
  send_count = recv_count = 0;
  group_comm = NULL;
  return result;
}

int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, ncclComm_t comm,
                  cudaStream_t s) {
  (void)s;
  note("ncclAllReduce");
  struct comm* c = live(comm);
  if (c == NULL || element_bytes(type) == 0 || op < 0 || op > 4) return invalid_argument;
  if (c->world->nranks != 1) return invalid_usage; /* the stand-in reduces in a world of one */
  memmove(recv, send, count * element_bytes(type));
  return ok;
}
