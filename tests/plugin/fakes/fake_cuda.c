/* A stand-in for the NVIDIA driver's libcuda.so.1, for the plugin probe's tests.
 *
 * It answers the handful of driver calls the probe and its child make, as environment
 * variables configure it (read on every call, so one build serves every test):
 *   FAKE_CUDA_DRIVER_VERSION   what cuDriverGetVersion reports (default 13000)
 *   FAKE_CUDA_DEVICES          compute capabilities the driver shows after cuInit, "9.0,8.6";
 *                              unset or empty: none (cuInit then fails with NO_DEVICE, as the
 *                              real driver does when CUDA_VISIBLE_DEVICES hides everything)
 *   FAKE_CUDA_INIT_LOG         cuInit appends a line "<pid> <CUDA_VISIBLE_DEVICES>" to this
 *                              file, so that a test can tell which process initialised CUDA
 *                              and what it was told to show
 *   FAKE_CUDA_INIT_ERROR       cuInit fails with this CUresult
 *   FAKE_CUDA_INIT_HANG        cuInit never returns (a hung driver)
 * Calls that need cuInit fail with CUDA_ERROR_NOT_INITIALIZED before it, like the real driver,
 * so a caller that forgets cuInit is caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
};

enum { MAX_DEVICES = 16 };

static int initialised;

static int devices(int majors[MAX_DEVICES], int minors[MAX_DEVICES]) {
    const char *spec = getenv("FAKE_CUDA_DEVICES");
    int count = 0;
    while (spec && *spec && count < MAX_DEVICES) {
        char *end;
        majors[count] = (int)strtol(spec, &end, 10);
        minors[count] = (*end == '.') ? (int)strtol(end + 1, &end, 10) : 0;
        ++count;
        spec = (*end == ',') ? end + 1 : NULL;
    }
    return count;
}

int cuDriverGetVersion(int *version) {
    const char *value = getenv("FAKE_CUDA_DRIVER_VERSION");
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = value ? atoi(value) : 13000;
    return CUDA_SUCCESS;
}

int cuInit(unsigned flags) {
    int majors[MAX_DEVICES], minors[MAX_DEVICES];
    const char *log = getenv("FAKE_CUDA_INIT_LOG");
    if (log) {
        FILE *file = fopen(log, "a");
        if (file) {
            const char *visible = getenv("CUDA_VISIBLE_DEVICES");
            fprintf(file, "%d %s\n", (int)getpid(), visible ? visible : "<unset>");
            fclose(file);
        }
    }
    if (getenv("FAKE_CUDA_INIT_HANG"))
        for (;;) pause();
    if (getenv("FAKE_CUDA_INIT_ERROR")) return atoi(getenv("FAKE_CUDA_INIT_ERROR"));
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (devices(majors, minors) == 0) return CUDA_ERROR_NO_DEVICE;
    initialised = 1;
    return CUDA_SUCCESS;
}

int cuDeviceGetCount(int *count) {
    int majors[MAX_DEVICES], minors[MAX_DEVICES];
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    *count = devices(majors, minors);
    return CUDA_SUCCESS;
}

int cuDeviceGet(int *device, int ordinal) {
    int majors[MAX_DEVICES], minors[MAX_DEVICES];
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= devices(majors, minors)) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

int cuDeviceGetAttribute(int *value, int attribute, int device) {
    int majors[MAX_DEVICES], minors[MAX_DEVICES];
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (device < 0 || device >= devices(majors, minors)) return CUDA_ERROR_INVALID_DEVICE;
    if (attribute == 75) *value = majors[device];      /* COMPUTE_CAPABILITY_MAJOR */
    else if (attribute == 76) *value = minors[device]; /* COMPUTE_CAPABILITY_MINOR */
    else return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

int cuGetErrorName(int error, const char **name) {
    switch (error) {
    case CUDA_ERROR_NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; return CUDA_SUCCESS;
    case CUDA_ERROR_NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; return CUDA_SUCCESS;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}
