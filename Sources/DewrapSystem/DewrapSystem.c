#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>
#include "DewrapSystem.h"

int dewrap_syncfs(int descriptor) {
#if defined(__linux__)
    return syncfs(descriptor);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}
