# Key encodings (tests/test_encoding.c): the LAMPS and X-Wing example keys
# (tests/vectors/lamps, tests/vectors/xwing), OpenSSL 3.0 interoperability
# for X25519, Ed25519, P-256 and P-384 (both directions, DER and PEM), round trips of every
# algorithm and form, and the malformed-DER/PEM table.
vg_test(test_encoding test_encoding.c LIBS OpenSSL::Crypto)
