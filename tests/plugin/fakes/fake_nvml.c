/* A stand-in for the NVIDIA driver's libnvidia-ml.so.1 (NVML), for the plugin probe's tests.
 *
 * Configured by environment variables, read on every call:
 *   FAKE_NVML_DEVICES     the GPUs in NVML's enumeration order, ";"-separated, each
 *                         "major.minor/uuid/pci-bus/mig": mig 1 = MIG mode on, 0 = off,
 *                         -1 = MIG not supported (nvmlDeviceGetMigMode says NOT_SUPPORTED)
 *   FAKE_NVML_INIT_ERROR  nvmlInit_v2 fails with this nvmlReturn_t
 *   FAKE_NVML_FAIL        the name of one function that fails with NVML_ERROR_UNKNOWN
 *   FAKE_NVML_LOG         "init" and "shutdown" lines are appended here, so a test can check
 *                         that every successful init is paired with a shutdown
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_UNKNOWN = 999,
};

enum { MAX_DEVICES = 16 };

typedef struct {
    int major, minor, bus, mig;
    char uuid[96];
} fake_device;

typedef struct { /* nvmlPciInfo_t */
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} pci_info;

static int initialised;

static void log_line(const char *line) {
    const char *path = getenv("FAKE_NVML_LOG");
    FILE *file = path ? fopen(path, "a") : NULL;
    if (file) {
        fprintf(file, "%s\n", line);
        fclose(file);
    }
}

static int failing(const char *name) {
    const char *fail = getenv("FAKE_NVML_FAIL");
    return fail && strcmp(fail, name) == 0;
}

static int devices(fake_device out[MAX_DEVICES]) {
    const char *spec = getenv("FAKE_NVML_DEVICES");
    char copy[4096], *save = NULL, *item;
    int count = 0;
    if (!spec) return 0;
    snprintf(copy, sizeof copy, "%s", spec);
    for (item = strtok_r(copy, ";", &save); item && count < MAX_DEVICES;
         item = strtok_r(NULL, ";", &save)) {
        fake_device *d = &out[count];
        if (sscanf(item, "%d.%d/%95[^/]/%d/%d", &d->major, &d->minor, d->uuid, &d->bus,
                   &d->mig) == 5)
            ++count;
    }
    return count;
}

/* The handle is the index plus one, so that no handle is NULL. */
static int lookup(void *handle, fake_device *out) {
    fake_device all[MAX_DEVICES];
    intptr_t index = (intptr_t)handle - 1;
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (index < 0 || index >= devices(all)) return NVML_ERROR_INVALID_ARGUMENT;
    *out = all[index];
    return NVML_SUCCESS;
}

int nvmlInit_v2(void) {
    if (getenv("FAKE_NVML_INIT_ERROR")) return atoi(getenv("FAKE_NVML_INIT_ERROR"));
    initialised = 1;
    log_line("init");
    return NVML_SUCCESS;
}

int nvmlShutdown(void) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    initialised = 0;
    log_line("shutdown");
    return NVML_SUCCESS;
}

const char *nvmlErrorString(int result) {
    switch (result) {
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case 9: return "Driver Not Loaded";
    case NVML_ERROR_UNKNOWN: return "Unknown Error";
    default: return "Unknown Error Code";
    }
}

int nvmlDeviceGetCount_v2(unsigned *count) {
    fake_device all[MAX_DEVICES];
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (failing("nvmlDeviceGetCount_v2")) return NVML_ERROR_UNKNOWN;
    *count = (unsigned)devices(all);
    return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, void **handle) {
    fake_device all[MAX_DEVICES];
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (failing("nvmlDeviceGetHandleByIndex_v2")) return NVML_ERROR_UNKNOWN;
    if (index >= (unsigned)devices(all)) return NVML_ERROR_INVALID_ARGUMENT;
    *handle = (void *)(intptr_t)(index + 1);
    return NVML_SUCCESS;
}

int nvmlDeviceGetCudaComputeCapability(void *handle, int *major, int *minor) {
    fake_device d;
    int status = lookup(handle, &d);
    if (status != NVML_SUCCESS) return status;
    if (failing("nvmlDeviceGetCudaComputeCapability")) return NVML_ERROR_UNKNOWN;
    *major = d.major;
    *minor = d.minor;
    return NVML_SUCCESS;
}

int nvmlDeviceGetUUID(void *handle, char *uuid, unsigned length) {
    fake_device d;
    int status = lookup(handle, &d);
    if (status != NVML_SUCCESS) return status;
    if (strlen(d.uuid) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(uuid, d.uuid);
    return NVML_SUCCESS;
}

int nvmlDeviceGetPciInfo_v3(void *handle, pci_info *info) {
    fake_device d;
    int status = lookup(handle, &d);
    if (status != NVML_SUCCESS) return status;
    memset(info, 0, sizeof *info);
    info->bus = (unsigned)d.bus;
    snprintf(info->busId, sizeof info->busId, "00000000:%02X:00.0", (unsigned)d.bus);
    return NVML_SUCCESS;
}

int nvmlDeviceGetMigMode(void *handle, unsigned *current, unsigned *pending) {
    fake_device d;
    int status = lookup(handle, &d);
    if (status != NVML_SUCCESS) return status;
    if (d.mig < 0) return NVML_ERROR_NOT_SUPPORTED;
    *current = *pending = (unsigned)d.mig;
    return NVML_SUCCESS;
}
