// System calls the Swift Glibc module does not declare (they need _GNU_SOURCE).
#ifndef DEWRAP_SYSTEM_H
#define DEWRAP_SYSTEM_H

/// syncfs(2): flushes the file system that holds `descriptor` to disk; 0, or -1 with errno.
/// Linux only: elsewhere -1 with ENOSYS.
int dewrap_syncfs(int descriptor);

#endif
