/* SPDX-License-Identifier: MIT */
/*
 * verify-diff [N] - fwload-verify's Ed25519 and SHA-512 against OpenSSL's
 * (libcrypto), N cases (5000).
 *
 * Each case: a key made by OpenSSL, a message of 0 to 1000 random bytes
 * signed by OpenSSL; our verdict (ed25519_verify()) must equal OpenSSL's
 * (EVP_DigestVerify) for the signature, the signature with one random bit
 * flipped, the message with one bit flipped, the key with one bit flipped,
 * and the signature of another message; for S replaced by S + L ours must
 * refuse (OpenSSL's verdicts on it are counted and printed). Every key
 * OpenSSL makes must pass key_refusal(). Then SHA-512 of every length
 * from 0 to 300 and N random lengths up to 3000, each fed whole and in
 * random pieces. A disagreement prints the case in hex; the exit status
 * is 1 if there was any. The last lines give the counts, and the time of
 * one verification, ours and OpenSSL's.
 */
#define main fwload_verify_main
#include "../fwload-verify.c"
#undef main

#include <stdio.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

static int failures;

static void rnd(void *p, size_t n)
{
	if (n && RAND_bytes(p, (int)n) != 1) {
		fprintf(stderr, "verify-diff: RAND_bytes failed\n");
		exit(111);
	}
}

static unsigned rnd_below(unsigned n)
{
	uint32_t r;

	rnd(&r, sizeof(r));
	return r % n;
}

static void hexdump(const char *what, const uint8_t *p, size_t n)
{
	printf("  %s (%zu bytes): ", what, n);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* OpenSSL's verdict: 1 valid, 0 not. */
static int openssl_verify(const uint8_t sig[64], const uint8_t pk[32], const uint8_t *m, size_t n)
{
	EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, 32);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = 0;

	if (key && ctx && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1)
		ok = EVP_DigestVerify(ctx, sig, 64, m, n) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	return ok;
}

/* Ours and OpenSSL's verdicts on one input agree (want: ours must be
 * this, whatever OpenSSL says; -1: no such demand). OpenSSL's verdict. */
static int check(long c, const char *what, const uint8_t sig[64], const uint8_t pk[32], const uint8_t *m,
		 size_t n, int want)
{
	int ours = ed25519_verify(sig, pk, m, n) == 0, theirs = openssl_verify(sig, pk, m, n);

	if (want < 0 ? ours != theirs : ours != want) {
		printf("FAIL case %ld, %s: ours %s, OpenSSL %s%s\n", c, what, ours ? "valid" : "invalid",
		       theirs ? "valid" : "invalid", want < 0 ? "" : want ? " (want valid)" : " (want invalid)");
		hexdump("key", pk, 32);
		hexdump("signature", sig, 64);
		hexdump("message", m, n);
		failures++;
	}
	return theirs;
}

/* s += L (32 bytes little-endian; S < L, so S + L < 2^254 fits). */
static void add_l(uint8_t s[32])
{
	int c = 0;

	for (int i = 0; i < 32; i++) {
		c += s[i] + L[i];
		s[i] = (uint8_t)c;
		c >>= 8;
	}
}

static void sha512_check(long c, const uint8_t *m, size_t n)
{
	struct sha512 h;
	uint8_t ours[64], whole[64], theirs[64];
	unsigned int len = 0;

	sha512_init(&h);
	sha512_update(&h, m, n);
	sha512_final(&h, whole);
	sha512_init(&h);
	for (size_t i = 0, k; i < n; i += k) {  /* in random pieces */
		k = 1 + rnd_below(200);
		if (k > n - i)
			k = n - i;
		sha512_update(&h, m + i, k);
	}
	sha512_final(&h, ours);
	if (EVP_Digest(m, n, theirs, &len, EVP_sha512(), NULL) != 1 || len != 64 ||
	    memcmp(ours, theirs, 64) != 0 || memcmp(whole, theirs, 64) != 0) {
		printf("FAIL SHA-512 case %ld\n", c);
		hexdump("message", m, n);
		hexdump("ours (whole)", whole, 64);
		hexdump("ours (pieces)", ours, 64);
		hexdump("OpenSSL", theirs, 64);
		failures++;
	}
}

int main(int argc, char **argv)
{
	static uint8_t m[1001], m2[1001], buf[3001];
	long cases = argc > 1 ? atol(argv[1]) : 5000, c, verdicts = 0, msg_flips = 0, lenient = 0, key_bad = 0;
	double ours_t = 0, theirs_t = 0, t;

	if (cases <= 0) {
		fprintf(stderr, "usage: verify-diff [N]\n");
		return 100;
	}
	for (c = 0; c < cases; c++) {
		EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
		EVP_MD_CTX *ctx = EVP_MD_CTX_new();
		uint8_t pk[32], sig[64], sig2[64], bad[64], badpk[32];
		size_t pklen = 32, siglen = 64, n = rnd_below(1001), n2 = rnd_below(1001);
		const char *why;
		unsigned b;

		rnd(m, n);
		rnd(m2, n2);
		if (!key || !ctx || EVP_PKEY_get_raw_public_key(key, pk, &pklen) != 1 ||
		    EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) != 1 ||
		    EVP_DigestSign(ctx, sig, &siglen, m, n) != 1 || EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) != 1 ||
		    EVP_DigestSign(ctx, sig2, &siglen, m2, n2) != 1) {
			fprintf(stderr, "verify-diff: OpenSSL could not make a key or sign\n");
			return 111;
		}
		EVP_MD_CTX_free(ctx);
		EVP_PKEY_free(key);
		if ((why = key_refusal(pk))) {
			printf("FAIL case %ld: OpenSSL's key refused: %s\n", c, why);
			hexdump("key", pk, 32);
			failures++;
		}

		t = now();
		if (ed25519_verify(sig, pk, m, n) != 0)
			check(c, "the signature", sig, pk, m, n, 1);
		ours_t += now() - t;
		t = now();
		if (!openssl_verify(sig, pk, m, n))
			check(c, "the signature (OpenSSL)", sig, pk, m, n, 1);
		theirs_t += now() - t;

		memcpy(bad, sig, 64);
		b = rnd_below(512);
		bad[b / 8] ^= (uint8_t)(1 << (b % 8));
		check(c, "a bit of the signature flipped", bad, pk, m, n, -1);
		if (n > 0) {
			b = rnd_below((unsigned)(8 * n));
			m[b / 8] ^= (uint8_t)(1 << (b % 8));
			check(c, "a bit of the message flipped", sig, pk, m, n, -1);
			m[b / 8] ^= (uint8_t)(1 << (b % 8));
			msg_flips++;
		}
		memcpy(badpk, pk, 32);
		b = rnd_below(256);
		badpk[b / 8] ^= (uint8_t)(1 << (b % 8));
		key_bad += key_refusal(badpk) != NULL;
		check(c, "a bit of the key flipped", sig, badpk, m, n, -1);
		memcpy(bad, sig, 64);
		add_l(bad + 32);
		lenient += check(c, "S + L", bad, pk, m, n, 0);
		check(c, "another message's signature", sig2, pk, m, n, -1);
		verdicts += 6 + (n > 0);
	}
	for (c = 0; c < cases + 301; c++) {
		size_t n = c <= 300 ? (size_t)c : rnd_below(3001);

		rnd(buf, n);
		sha512_check(c, buf, n);
	}
	printf("verify-diff: %ld cases, %ld verdicts compared (%ld with a message bit flipped; %ld flipped keys "
	       "no valid key), %ld S + L refused by us, accepted by OpenSSL %ld times\n",
	       cases, verdicts, msg_flips, key_bad, cases, lenient);
	printf("verify-diff: SHA-512 of %ld inputs (every length 0-300, then random up to 3000), whole and in pieces\n",
	       cases + 301);
	printf("verify-diff: one verification: ours %.0f us, OpenSSL %.0f us (mean of %ld)\n",
	       ours_t / (double)cases * 1e6, theirs_t / (double)cases * 1e6, cases);
	printf("verify-diff: %s\n", failures ? "FAILED" : "all agree");
	return failures ? 1 : 0;
}
