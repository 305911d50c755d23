/*
 * Messages of any size for `sign` and `verify` (cli_msg.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_io.h" /* VG_CLI_IO_*, vg_cli_read_upto */
#include "cli_msg.h"
#include "common.h"

/* The whole of m->fd into m->mem (at most max bytes; VG_CLI_IO_ETOOBIG
 * after reading max + 1). Grows by doubling; every buffer left behind by a
 * realloc is wiped first, as the message may be secret. */
static int read_whole(struct vg_cli_msg *m, size_t max)
{
    size_t cap = 1 << 16, used = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return VG_CLI_IO_ESYS;
    for (;;) {
        ptrdiff_t r = vg_cli_read_upto(m->fd, buf + used, cap - used);
        if (r < 0)
            goto fail;
        used += (size_t)r;
        if (used > max) {
            vg_wipe(buf, used);
            free(buf);
            return VG_CLI_IO_ETOOBIG;
        }
        if (used < cap)
            break;
        size_t ncap = cap > (max + 1) / 2 ? max + 1 : 2 * cap;
        uint8_t *nb = malloc(ncap);
        if (!nb)
            goto fail;
        memcpy(nb, buf, used);
        vg_wipe(buf, used);
        free(buf);
        buf = nb;
        cap = ncap;
    }
    m->mem = buf;
    m->mem_len = used;
    return VG_CLI_IO_OK;
fail:;
    int saved = errno;
    vg_wipe(buf, used);
    free(buf);
    errno = saved;
    return VG_CLI_IO_ESYS;
}

int vg_cli_msg_open(struct vg_cli_msg *m, const char *path, int two_passes, size_t mem_max)
{
    struct stat st;
    memset(m, 0, sizeof *m);
    m->own_fd = strcmp(path, "-") != 0;
    m->fd = m->own_fd ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
    if (m->fd < 0)
        return VG_CLI_IO_ESYS;
    if (fstat(m->fd, &st) != 0)
        goto fail;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        goto fail;
    }
    /* Seekable: a regular file or block device whose offset can be set
     * (a terminal or pipe on standard input fails lseek with ESPIPE). */
    int seekable = (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) &&
                   lseek(m->fd, 0, SEEK_CUR) >= 0;
    if (two_passes && !seekable) {
        int rc = read_whole(m, mem_max);
        if (rc != VG_CLI_IO_OK) {
            int saved = errno;
            vg_cli_msg_close(m);
            errno = saved;
        }
        return rc;
    }
    m->chunk = malloc(VG_CLI_MSG_CHUNK);
    if (!m->chunk)
        goto fail;
    return VG_CLI_IO_OK;
fail:;
    int saved = errno;
    vg_cli_msg_close(m);
    errno = saved;
    return VG_CLI_IO_ESYS;
}

int vg_cli_msg_pass(struct vg_cli_msg *m, void (*fn)(void *arg, const uint8_t *in, size_t len),
                    void *arg)
{
    m->total = 0;
    if (m->mem) {
        fn(arg, m->mem, m->mem_len);
        m->total = m->mem_len;
        m->passes++;
        return VG_CLI_IO_OK;
    }
    if (!m->chunk) {
        errno = EBADF;
        return VG_CLI_IO_ESYS;
    }
    if (m->passes > 0 && lseek(m->fd, 0, SEEK_SET) != 0)
        return VG_CLI_IO_ESYS;
    m->passes++;
    for (;;) {
        ptrdiff_t r = vg_cli_read_upto(m->fd, m->chunk, VG_CLI_MSG_CHUNK);
        if (r < 0)
            return VG_CLI_IO_ESYS;
        fn(arg, m->chunk, (size_t)r);
        m->total += (uint64_t)r;
        if ((size_t)r < VG_CLI_MSG_CHUNK)
            return VG_CLI_IO_OK;
    }
}

void vg_cli_msg_close(struct vg_cli_msg *m)
{
    if (m->mem) {
        vg_wipe(m->mem, m->mem_len);
        free(m->mem);
    }
    if (m->chunk) {
        vg_wipe(m->chunk, VG_CLI_MSG_CHUNK);
        free(m->chunk);
    }
    if (m->own_fd && m->fd >= 0)
        close(m->fd);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}
