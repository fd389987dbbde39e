/* A stand-in for NCCL in a world of one rank, on host memory, for test_distributed_nccl.py:
 * the signatures are nccl.h's, so dyng's ctypes binding is checked call by call (argument
 * order, the unique id passed by value, the group's pairing of sends and receives) on machines
 * without a GPU. Each call appends its name to a log the test reads (stub_log); a group's sends
 * and receives are paired per peer in order at ncclGroupEnd, as NCCL pairs them, and a pair of
 * different lengths or without a partner fails the group. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  char internal[128];
} ncclUniqueId;
typedef void* ncclComm_t;
typedef void* cudaStream_t;

enum { ok = 0, system_error = 2, invalid_argument = 4, invalid_usage = 5 };

static char log_text[8192];
static unsigned char joined_id[128];
static int made_ids = 0, group_depth = 0, comm_alive = 0;
static int comm_token;

struct pending {
  const void* send;
  void* recv;
  size_t bytes;
  int peer;
};
static struct pending sends[64], recvs[64];
static int send_count = 0, recv_count = 0;

static void note(const char* name) {
  strncat(log_text, name, sizeof log_text - strlen(log_text) - 2);
  strncat(log_text, " ", sizeof log_text - strlen(log_text) - 1);
}

static size_t element_bytes(int type) {
  static const size_t sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8};
  return type >= 0 && type <= 8 ? sizes[type] : 0;
}

const char* stub_log(void) { return log_text; }
void stub_reset(void) {
  log_text[0] = 0;
  send_count = recv_count = group_depth = 0;
}
void stub_joined_id(unsigned char* out) { memcpy(out, joined_id, 128); }

const char* ncclGetErrorString(int result) {
  switch (result) {
    case ok: return "no error";
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
  made_ids++;
  for (int i = 0; i < 128; i++) id->internal[i] = (char)(i * 7 + made_ids);
  return ok;
}

int ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  note("ncclCommInitRank");
  memcpy(joined_id, id.internal, 128);
  if (nranks != 1 || rank != 0) return invalid_usage;
  comm_alive = 1;
  *comm = &comm_token;
  return ok;
}

static int check_comm(ncclComm_t comm) {
  return comm == &comm_token && comm_alive ? ok : invalid_argument;
}

int ncclCommDestroy(ncclComm_t comm) {
  note("ncclCommDestroy");
  int r = check_comm(comm);
  comm_alive = 0;
  return r;
}
int ncclCommAbort(ncclComm_t comm) {
  note("ncclCommAbort");
  int r = check_comm(comm);
  comm_alive = 0;
  return r;
}

int ncclCommGetAsyncError(ncclComm_t comm, int* error) {
  note("ncclCommGetAsyncError");
  *error = ok;
  return check_comm(comm);
}

int ncclGroupStart(void) {
  note("ncclGroupStart");
  group_depth++;
  return ok;
}

int ncclSend(const void* buffer, size_t count, int type, int peer, ncclComm_t comm,
             cudaStream_t s) {
  (void)s;
  note("ncclSend");
  if (check_comm(comm) != ok || element_bytes(type) == 0 || peer != 0 || group_depth == 0 ||
      send_count == 64)
    return invalid_argument;
  sends[send_count++] = (struct pending){buffer, NULL, count * element_bytes(type), peer};
  return ok;
}

int ncclRecv(void* buffer, size_t count, int type, int peer, ncclComm_t comm, cudaStream_t s) {
  (void)s;
  note("ncclRecv");
  if (check_comm(comm) != ok || element_bytes(type) == 0 || peer != 0 || group_depth == 0 ||
      recv_count == 64)
    return invalid_argument;
  recvs[recv_count++] = (struct pending){NULL, buffer, count * element_bytes(type), peer};
  return ok;
}

int ncclGroupEnd(void) {
  note("ncclGroupEnd");
  if (group_depth == 0) return invalid_usage;
  if (--group_depth > 0) return ok;
  int failed = send_count != recv_count;
  for (int i = 0; !failed && i < send_count; i++) {
    if (sends[i].bytes != recvs[i].bytes) failed = 1;
    else memcpy(recvs[i].recv, sends[i].send, sends[i].bytes);
  }
  send_count = recv_count = 0;
  return failed ? invalid_usage : ok;
}

int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, ncclComm_t comm,
                  cudaStream_t s) {
  (void)s;
  note("ncclAllReduce");
  if (check_comm(comm) != ok || element_bytes(type) == 0 || op < 0 || op > 4)
    return invalid_argument;
  memmove(recv, send, count * element_bytes(type));
  return ok;
}
