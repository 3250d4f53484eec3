/* SPDX-License-Identifier: MIT */
/*
 * xsave-size - print the size of this CPU's XSAVE area for the features
 * the kernel enabled (CPUID leaf 0xd, subleaf 0, EBX), as the UML test
 * kernel must take it from the host (test/kernel/patches/uml-host-xsave.patch).
 * Exit status 1 where there is no such leaf (not x86, or no XSAVE).
 */
#include <stdio.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid_max(0, NULL) >= 0xd && __get_cpuid_count(0xd, 0, &eax, &ebx, &ecx, &edx) && ebx) {
		printf("%u\n", ebx);
		return 0;
	}
#endif
	return 1;
}
