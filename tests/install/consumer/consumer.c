/* A program built against an installed vgcrypto: prints the version and
 * SHA-256("abc"), which the install test compares with FIPS 180-4. */
#include <stdio.h>
#include <vgcrypto.h>

int main(void)
{
    uint8_t d[32];
    if (vg_sha256(d, (const uint8_t *)"abc", 3) != VG_OK)
        return 1;
    printf("%s ", vg_version());
    for (int i = 0; i < 32; i++)
        printf("%02x", d[i]);
    printf("\n");
    return 0;
}
