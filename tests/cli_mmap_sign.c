/*
 * Reference for tests/test_cli_long.sh: the library's one-shot Ed25519
 * signature (vg_ed25519_sign) over a whole file mapped into memory, to
 * compare with `vgcrypto sign ed25519`, which streams the file in two
 * passes. The file may be larger than memory (a sparse test file: its
 * pages are the kernel's, reclaimable).
 *
 *   cli_mmap_sign SECRET_KEY MESSAGE OUT
 *
 * SECRET_KEY: 64 raw bytes (seed || public key). OUT: the 64-byte
 * signature. Exit 0, or 2 on a usage or I/O error.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgcrypto.h"

int main(int argc, char **argv)
{
    unsigned char sk[64], sig[64];
    struct stat st;
    const unsigned char *msg = NULL;
    FILE *f;
    int fd, rc = 2;
    if (argc != 4) {
        fprintf(stderr, "usage: cli_mmap_sign SECRET_KEY MESSAGE OUT\n");
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f || fread(sk, 1, 64, f) != 64) {
        fprintf(stderr, "cli_mmap_sign: cannot read a 64-byte key from %s\n", argv[1]);
        if (f)
            fclose(f);
        return 2;
    }
    fclose(f);
    fd = open(argv[2], O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[2]);
        return 2;
    }
    if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            close(fd);
            return 2;
        }
        msg = p;
    }
    if (vg_ed25519_sign(sig, msg, (size_t)st.st_size, sk) == VG_OK) {
        f = fopen(argv[3], "wb");
        if (f && fwrite(sig, 1, 64, f) == 64 && fclose(f) == 0)
            rc = 0;
        else
            perror(argv[3]);
    }
    if (msg)
        munmap((void *)msg, (size_t)st.st_size);
    close(fd);
    return rc;
}
